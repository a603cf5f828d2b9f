import Model

@testable import Edge

/// The clicks no answer waits for, kept.
final class KeptClicks: ClickRecording, @unchecked Sendable {
    private(set) var recorded: [Click] = []
    private(set) var previews: [(appId: String?, linkId: String, at: Int64)] = []
    private var made = 0

    func newId(at: Int64, loop: Int) -> String {
        made += 1
        return "biq_clk_" + String(repeating: "0", count: 25) + String(made)
    }

    func record(_ click: Click, loop: Int) { recorded.append(click) }

    func recordPreview(appId: String?, linkId: String, at: Int64, loop: Int) {
        previews.append((appId, linkId, at))
    }
}
