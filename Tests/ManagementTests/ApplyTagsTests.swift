import Core
import Model
import Store
import XCTest

@testable import Management

/// `apply`'s tags (issue 35): a `tags` section identified by name ignoring case, and links
/// naming them with `tagNames`; idempotent, and all or nothing like the rest of the file.
final class ApplyTagsTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "apply-tags")
        (store, _) = try InProcessAPI.store(in: directory)
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    private func document(color: String = "green", tagNames: JSONValue = ["Spring", "promo"]) -> JSONValue {
        [
            "domains": [["hostname": "go.example.com", "verified": true]],
            "tags": [["name": "spring", "color": .string(color)], ["name": "Promo"]],
            "links": [["domain": "go.example.com", "key": "sale", "url": "https://x.com/", "tagNames": tagNames]],
        ]
    }

    func testTagsAreCreatedThenLeftAloneThenRecolouredAndLinksNameThem() throws {
        let first = try CatalogImport.run(document(), store: store, now: 1, dryRun: false).get()
        XCTAssertEqual(first.tags.created, 2)
        let reader = try store.reader(loop: 0)
        let tags = try reader.tags()
        XCTAssertEqual(Set(tags.map(\.name)), ["spring", "Promo"])
        let link = try XCTUnwrap(try reader.link(host: "go.example.com", key: "sale"))
        XCTAssertEqual(link.options?.tagIds, tags.map(\.id).sorted())

        let second = try CatalogImport.run(document(), store: store, now: 2, dryRun: false).get()
        XCTAssertTrue(second.changes.isEmpty, "\(second.changes)")
        XCTAssertEqual(second.tags.unchanged, 2)
        XCTAssertEqual(second.links.unchanged, 1)

        let third = try CatalogImport.run(document(color: "red"), store: store, now: 3, dryRun: false).get()
        XCTAssertEqual(third.tags.updated, 1)
        XCTAssertEqual(try reader.tags().first { $0.name == "spring" }?.color, .red)
        XCTAssertEqual(try reader.tags().count, 2)
    }

    func testAnUnknownTagNameOrTwoEntriesOfOneNameWriteNothing() throws {
        guard
            case .failure(.invalid(let problems)) = CatalogImport.run(
                document(tagNames: ["spring", "winter"]), store: store, now: 1, dryRun: false)
        else { return XCTFail("a link naming an unknown tag was applied") }
        XCTAssertEqual(problems.map(\.field), ["links[0].tagNames[1]"])
        XCTAssertEqual(try store.reader(loop: 0).tags(), [])
        XCTAssertNil(try store.reader(loop: 0).domain("go.example.com"))

        let twice: JSONValue = ["tags": [["name": "Spring"], ["name": "SPRING", "color": "red"]]]
        guard case .failure(.invalid(let dup)) = CatalogImport.run(twice, store: store, now: 2, dryRun: false) else {
            return XCTFail("two entries of one tag name were applied")
        }
        XCTAssertEqual(dup.map(\.field), ["tags[1].name"])

        let both: JSONValue = [
            "domains": [["hostname": "go.example.com", "verified": true]], "tags": [["name": "a"]],
            "links": [
                ["domain": "go.example.com", "key": "k", "url": "https://x.com/", "tagNames": ["a"], "tagIds": []]
            ],
        ]
        guard case .failure(.invalid(let exclusive)) = CatalogImport.run(both, store: store, now: 3, dryRun: false)
        else { return XCTFail("tagNames and tagIds together were applied") }
        XCTAssertEqual(exclusive.map(\.field), ["links[0].tagNames"])
    }
}
