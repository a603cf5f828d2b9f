import Core
import HTTPMessages
import Management
import Store

/// The customers (issue 25 item 6): the list, by the API's cursor, and one customer's
/// journey, through the same store reads as `GET /api/v1/customers[/{externalId}]`.
extension Console {
    /// `GET /console/customers?cursor=&limit=`: `limit` 1 to the page size (its default).
    func customersPage(_ request: ConsoleRequest, csrf: String, _ reader: any ConversionReading) throws -> HTTPResponse
    {
        let cursor = request.query["cursor"].flatMap { $0.isEmpty ? nil : $0 }
        let asked = request.query["limit"].flatMap { WholeNumber.parse($0, in: 1...configuration.pageSize) }
        let page = try WorkspaceOperations.customers(after: cursor, limit: asked ?? configuration.pageSize, reader)
        return CustomersPage.render(
            .init(customers: page.customers, next: page.next, limit: asked, first: cursor == nil), csrf: csrf)
    }

    /// `GET /console/customers/{externalId}`.
    func customerPage(_ externalId: String, csrf: String, _ reader: any ConversionReading & LinkReading) throws
        -> HTTPResponse
    {
        guard let journey = try WorkspaceOperations.customerJourney(externalId: externalId, reader) else {
            return MessagePage.notFound(csrf: csrf)
        }
        return CustomerPage.render(journey, csrf: csrf)
    }
}
