import HTTPMessages

extension HTTPLimits {
    /// The most input one request can occupy before `HTTPRequestParser` answers (with the
    /// request or an error): while it says `.needMore` the unconsumed input never exceeds this.
    /// A connection that caps its input buffer must allow at least this much, or a request
    /// within the limits would stall until its timeout. With the defaults: 2,135,052 bytes.
    ///
    /// It adds up: ignored empty lines before the request line; the head (the request line can
    /// be longer than `maxHeaderBytes` when so configured); the body; the chunked framing
    /// allowance with one unfinished size line; the trailers, bounded like a head.
    public var maxBufferedBytes: Int {
        let emptyLines = 2 * HTTPRequestParser.maxLeadingEmptyLines
        let head = Swift.max(maxRequestLineBytes + 2, maxHeaderBytes)
        let framing = ChunkedDecoder.maxFramingBytes(self) + ChunkedDecoder.maxSizeLineBytes + 4
        return emptyLines + head + maxBodyBytes + framing + maxHeaderBytes
    }
}
