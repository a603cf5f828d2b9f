import HTTPMessages
import Model

/// What a visit answers (`VisitFlow.answer`): at once, or once its click (and handoff)
/// are durable (decision 0003).
enum VisitAnswer {
    case now(HTTPResponse)
    /// `success` once `click` and `handoff` are written; `fallback()` when the write fails
    /// (the visitor always goes on, without what the write would have carried).
    case afterWrite(
        click: Click, handoff: Handoff?, success: HTTPResponse, fallback: @Sendable () -> HTTPResponse)
}

/// `VisitFlow`'s way of handing over an answer that waits for its write: the click, its
/// handoff, the answer once they are durable, and the one when the write fails.
/// Owned, so that the click and the handoff move into the write rather than being copied.
typealias AfterWrite<Result> = (
    consuming Click, consuming Handoff?, consuming HTTPResponse, @escaping @Sendable () -> HTTPResponse
) -> Result
