import Foundation
import VCard

/// `trailhead-bench vcard-unfolding`: is reading a folded vCard value linear in its length?
///
/// One card with a PHOTO of 2 MB and of 20 MB, folded at 75 columns as phones export it, next to
/// its peer in the same run: the same card with the value on one line. Before the fix the folded
/// 2 MB card took 24 s (quadratic); linear means 20 MB / 2 MB ≈ 10 and folded / one line ≈ 1–2.
/// Times are CPU time of the process (the machine is shared), median of the repetitions.
struct VCardUnfoldingBench: Benchmark {
    let name = "vcard-unfolding"
    let sizesMB = [2, 20]
    let repetitions = 3

    func run() throws {
        print("One card, a PHOTO value of N MB; CPU time, median of \(repetitions) runs.")
        print()
        print("| value | file bytes | folded at 75 | one line (peer) | folded / one line |")
        print("|---|---:|---:|---:|---:|")
        var folded: [Int: Double] = [:]
        for megabytes in sizesMB {
            let value = String(repeating: "QUJDRA", count: megabytes * 1024 * 1024 / 6)
            let foldedCard = Data(card(photo: value, foldedAt: 75).utf8)
            let oneLineCard = Data(card(photo: value, foldedAt: nil).utf8)
            folded[megabytes] = try median { try read(foldedCard) }
            let oneLine = try median { try read(oneLineCard) }
            print(
                "| \(megabytes) MB | \(foldedCard.count) | \(seconds(folded[megabytes]!)) | \(seconds(oneLine)) "
                    + "| \(String(format: "%.2f", folded[megabytes]! / oneLine)) |")
        }
        var load = [0.0, 0.0, 0.0]
        getloadavg(&load, 3)
        print()
        print("Ratio 20 MB / 2 MB, folded: \(String(format: "%.1f", folded[20]! / folded[2]!)) (linear ≈ 10, quadratic ≈ 100)")
        print("Load average at the end: \(String(format: "%.2f", load[0])) on \(ProcessInfo.processInfo.activeProcessorCount) cores.")
    }

    /// A phone export's shape: name, a huge photo, then a field that must survive it.
    private func card(photo: String, foldedAt width: Int?) -> String {
        let line = Array("PHOTO;ENCODING=b;TYPE=JPEG:\(photo)".utf8)
        var photoLines = String(decoding: line, as: UTF8.self)
        if let width {
            // The first physical line holds `width` bytes, each continuation a space and width - 1.
            var pieces = [String(decoding: line.prefix(width), as: UTF8.self)]
            var start = width
            while start < line.count {
                pieces.append(" " + String(decoding: line[start..<min(start + width - 1, line.count)], as: UTF8.self))
                start += width - 1
            }
            photoLines = pieces.joined(separator: "\r\n")
        }
        return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Folded Photo\r\n\(photoLines)\r\nEMAIL:after@example.com\r\nEND:VCARD\r\n"
    }

    /// Reads the card and checks the field after the photo, so the work cannot be skipped.
    private func read(_ data: Data) throws {
        let result = VCardReader.read(data, maximumSize: .max)
        guard result.contacts.first?.emails.first?.value == "after@example.com" else {
            throw VCardBenchError(message: "the card after the folded photo was not read: \(result.warnings)")
        }
    }

    private func median(_ body: () throws -> Void) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = processCPUTime()
            try body()
            samples.append(processCPUTime() - start)
        }
        return percentile(samples, 0.5)
    }

    private func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}

private func processCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

private struct VCardBenchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
