import Model

/// The visits' clicks that no answer waits for (issue 34 item 5's seam): `ClickRecorder`
/// in service, which writes them once per loop pass; the unit tests keep them.
protocol ClickRecording: Sendable {
    /// A new click id for a click made at `at` on loop `loop`.
    func newId(at: Int64, loop: Int) -> String
    func record(_ click: Click, loop: Int)
    /// A preview bot's visit: counted, not stored as a click.
    func recordPreview(appId: String?, linkId: String, at: Int64, loop: Int)
}
