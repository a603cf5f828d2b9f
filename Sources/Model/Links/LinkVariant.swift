/// One arm of a link's A/B test (`variants[]`): the share of web visits, in percent, sent
/// to `url`. A visitor keeps the arm they got (decision 0032's cookie).
public struct LinkVariant: Sendable, Equatable {
    public var url: String
    /// 1 to 100; the weights of a link's variants sum to 100.
    public var weight: Int

    public init(url: String, weight: Int) {
        self.url = url
        self.weight = weight
    }
}
