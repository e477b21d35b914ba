import Foundation
import TrailheadSchema
import XCTest

@testable import TrailheadModels

/// The first token's candidates in a llama.cpp `/completion` answer, in each of its spellings.
final class TokenProbabilityTests: XCTestCase {
    func testLogprobsProbsAndTheOlderSpellingAreRead() throws {
        let logprobs = try GeneratedContent(json: #"{"completion_probabilities":[{"token":"name","logprob":-0.5,"top_logprobs":[{"id":1,"token":"name","logprob":-0.5},{"id":2,"token":"answer","logprob":-1.0}]}]}"#)
        let read = try XCTUnwrap(OpenAICompatibleModel.topProbabilities(in: logprobs))
        XCTAssertEqual(read.map(\.token), ["name", "answer"])
        XCTAssertEqual(read[0].probability, exp(-0.5), accuracy: 1e-9)

        let probs = try GeneratedContent(json: #"{"completion_probabilities":[{"top_probs":[{"token":"answer","prob":0.7}]}]}"#)
        XCTAssertEqual(OpenAICompatibleModel.topProbabilities(in: probs), [TokenProbability(token: "answer", probability: 0.7)])

        let older = try GeneratedContent(json: #"{"completion_probabilities":[{"content":"n","probs":[{"tok_str":"n","prob":0.25}]}]}"#)
        XCTAssertEqual(OpenAICompatibleModel.topProbabilities(in: older), [TokenProbability(token: "n", probability: 0.25)])

        XCTAssertNil(OpenAICompatibleModel.topProbabilities(in: ["content": "x"]))
    }
}
