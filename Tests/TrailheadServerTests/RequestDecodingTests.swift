import Foundation
import Testing
import TrailheadSchema
@testable import TrailheadServer

/// A request's schemas keep the key order the client sent: the model reads a function's
/// parameters, and writes an answer's members, in that order (as OpenAI's API does).
@Suite struct RequestDecodingTests {
    static let parameters = #"{"type":"object","properties":{"initial_velocity":{"type":"number"},"time":{"type":"number"},"acceleration":{"type":"number"}}}"#
    static let answer = #"{"type":"object","properties":{"reasoning":{"type":"string"},"answer":{"type":"string"}}}"#

    @Test func aChatCompletionsFunctionAndAnswerKeepTheirKeyOrder() throws {
        let body = #"{"model":"local","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":\#(Self.parameters)}}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":\#(Self.answer)}}}"#
        let request = try InvalidRequest.decode(ChatCompletionRequest.self, from: Data(body.utf8))
        let parameters = try #require(request.functions().first?.parameters)
        #expect(parameters["properties"]?.objectValue?.keys == ["initial_velocity", "time", "acceleration"])
        #expect(try request.answerSchema()?.json["properties"]?.objectValue?.keys == ["reasoning", "answer"])
    }

    @Test func aResponsesFunctionAndAnswerKeepTheirKeyOrder() throws {
        let body = #"{"model":"local","input":"hi","tools":[{"type":"function","name":"f","parameters":\#(Self.parameters)}],"text":{"format":{"type":"json_schema","name":"a","schema":\#(Self.answer)}}}"#
        let request = try InvalidRequest.decode(ResponsesRequest.self, from: Data(body.utf8))
        let parameters = try #require(request.functions().first?.parameters)
        #expect(parameters["properties"]?.objectValue?.keys == ["initial_velocity", "time", "acceleration"])
        #expect(try request.answerSchema()?.json["properties"]?.objectValue?.keys == ["reasoning", "answer"])
    }
}
