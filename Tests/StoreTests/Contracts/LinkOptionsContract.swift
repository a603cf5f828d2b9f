import Core
import Model
import XCTest

@testable import Store

/// What every backend must do with what a link may add (issue 35, decision 0032): the
/// options survive a write and a read (the link cache included), external ids and tags'
/// names are unique, tags filter the links and leave them when deleted, the click keeps
/// its variant and the domain its `passQuery`.
enum LinkOptionsContract {
    static let suite: [ContractCase] = [
        ("every option survives a write and a read", everyOptionSurvivesAWriteAndARead),
        ("a link without options reads back without them", aLinkWithoutOptionsReadsBackWithoutThem),
        ("a link is found by its external id, which is unique", aLinkIsFoundByItsExternalIdWhichIsUnique),
        ("tags round-trip and their names are unique ignoring case", tagsRoundTripAndNamesAreUniqueIgnoringCase),
        ("links are filtered by tag and deleting a tag takes it off", linksAreFilteredByTagAndDeletingATagTakesItOff),
        ("an unknown tag is a missing reference", anUnknownTagIsAMissingReference),
        ("the click keeps its variant and the domain its passQuery", theClickKeepsItsVariantAndTheDomainItsPassQuery),
    ]

    static let tagA = Tag(id: "biq_tag_01A", name: "Spring", color: .green, createdAt: 1, updatedAt: 2)
    static let tagB = Tag(id: "biq_tag_01B", name: "Ünïcode", color: .gray, createdAt: 3, updatedAt: 4)

    static let options = LinkOptions(
        rules: [
            LinkRule(
                conditions: RuleConditions(
                    countries: ["DE", "AT"], platforms: [.ios, .desktop], languages: ["pt", "de-CH"],
                    devices: [.tablet]),
                url: "https://example.com/de", skipApp: true),
            LinkRule(conditions: RuleConditions(), url: "https://example.com/all"),
        ],
        variants: [
            LinkVariant(url: "https://a.example.com/", weight: 30),
            LinkVariant(url: "https://b.example.com/", weight: 70),
        ],
        utm: UTMParameters(source: "news", campaign: "spring \"25\"", content: "é"), passQuery: false,
        expiresAt: 1_700_000_000_123, expiredUrl: "https://example.com/over", externalId: "crm 42/x",
        tagIds: [tagA.id, tagB.id], inAppEscapes: InAppEscapeSwitches(["*": [.safari, .playIntent], "tiktok": []]))

    static func seedWithTags(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        try b.write { tx in
            try tx.putTag(tagA)
            try tx.putTag(tagB)
        }
    }

    static func everyOptionSurvivesAWriteAndARead(_ b: any ContractBackend) throws {
        try seedWithTags(b)
        var link = Fixture.link()
        link.options = options
        try b.write { [link] tx in try tx.putLink(link) }
        XCTAssertEqual(try b.committed.link(id: Fixture.linkId)?.options, options)
        XCTAssertEqual(try b.committed.link(host: Fixture.host, key: "invite"), link)
        XCTAssertEqual(try b.write { tx in try tx.link(id: Fixture.linkId) }, link)
        XCTAssertEqual(try b.committed.links(domain: Fixture.host, after: nil, limit: 10), [link])
        // A change reaches the cached link.
        var changed = link
        changed.options = LinkOptions(passQuery: true)
        try b.write { [changed] tx in try tx.putLink(changed) }
        XCTAssertEqual(try b.committed.link(host: Fixture.host, key: "invite"), changed)
        XCTAssertEqual(try b.committed.link(id: Fixture.linkId)?.options?.tagIds, [])
    }

    static func aLinkWithoutOptionsReadsBackWithoutThem(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        XCTAssertNil(try b.committed.link(id: Fixture.linkId)?.options)
        var link = Fixture.link()
        link.options = LinkOptions(externalId: "only")
        try b.write { [link] tx in try tx.putLink(link) }
        XCTAssertEqual(try b.committed.link(id: Fixture.linkId)?.options, LinkOptions(externalId: "only"))
    }

    static func aLinkIsFoundByItsExternalIdWhichIsUnique(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        var link = Fixture.link()
        link.options = LinkOptions(externalId: "ext-1")
        try b.write { [link] tx in try tx.putLink(link) }
        XCTAssertEqual(try b.committed.link(externalId: "ext-1")?.id, Fixture.linkId)
        XCTAssertNil(try b.committed.link(externalId: "EXT-1"))
        var other = Fixture.link(id: "biq_lnk_2", key: "other")
        other.options = LinkOptions(externalId: "ext-1")
        XCTAssertEqual(b.writeError { [other] tx in try tx.putLink(other) }, .conflict(.externalId))
        XCTAssertNil(try b.committed.link(id: "biq_lnk_2"))
        // Links without one never conflict.
        try b.write { tx in
            try tx.putLink(Fixture.link(id: "biq_lnk_3", key: "k3"))
            try tx.putLink(Fixture.link(id: "biq_lnk_4", key: "k4"))
        }
    }

    static func tagsRoundTripAndNamesAreUniqueIgnoringCase(_ b: any ContractBackend) throws {
        try seedWithTags(b)
        XCTAssertEqual(try b.committed.tags(), [tagA, tagB])
        XCTAssertEqual(try b.committed.tag(id: tagB.id), tagB)
        XCTAssertNil(try b.committed.tag(id: "biq_tag_none"))
        XCTAssertEqual(
            b.writeError { tx in try tx.putTag(Tag(id: "biq_tag_01C", name: "SPRING")) }, .conflict(.tagName))
        XCTAssertEqual(
            b.writeError { tx in try tx.putTag(Tag(id: "biq_tag_01C", name: "üNÏCODE")) }, .conflict(.tagName))
        // Renaming a tag to its own name in another case is no conflict.
        let renamed = Tag(id: tagA.id, name: "SPRING", color: .red, createdAt: 1, updatedAt: 9)
        try b.write { tx in try tx.putTag(renamed) }
        XCTAssertEqual(try b.committed.tag(id: tagA.id), renamed)
    }

    static func linksAreFilteredByTagAndDeletingATagTakesItOff(_ b: any ContractBackend) throws {
        try seedWithTags(b)
        var first = Fixture.link()
        first.options = LinkOptions(tagIds: [tagA.id, tagB.id])
        var second = Fixture.link(id: "biq_lnk_2", key: "two")
        second.options = LinkOptions(tagIds: [tagA.id])
        try b.write { [first, second] tx in
            try tx.putLink(first)
            try tx.putLink(second)
        }
        XCTAssertEqual(
            try b.committed.links(tagId: tagA.id, after: nil, limit: 10).map(\.id), [Fixture.linkId, "biq_lnk_2"])
        XCTAssertEqual(try b.committed.links(tagId: tagA.id, after: nil, limit: 1).map(\.id), [Fixture.linkId])
        XCTAssertEqual(try b.committed.links(tagId: tagA.id, after: Fixture.linkId, limit: 10).map(\.id), ["biq_lnk_2"])
        XCTAssertEqual(try b.committed.links(tagId: tagB.id, after: nil, limit: 10).map(\.id), [Fixture.linkId])
        // Read once so that the link cache holds it, then delete the tag.
        XCTAssertEqual(try b.committed.link(host: Fixture.host, key: "invite")?.options?.tagIds, [tagA.id, tagB.id])
        XCTAssertEqual(try b.write { tx in try tx.deleteTag(id: tagA.id) }, true)
        XCTAssertEqual(try b.write { tx in try tx.deleteTag(id: tagA.id) }, false)
        XCTAssertEqual(try b.committed.link(host: Fixture.host, key: "invite")?.options?.tagIds, [tagB.id])
        XCTAssertNil(try b.committed.link(id: "biq_lnk_2")?.options)
        XCTAssertEqual(try b.committed.links(tagId: tagA.id, after: nil, limit: 10), [])
        XCTAssertEqual(try b.committed.tags(), [tagB])
        // Deleting a link takes its tags' rows with it.
        XCTAssertEqual(try b.write { tx in try tx.deleteLink(id: Fixture.linkId) }, true)
        XCTAssertEqual(try b.committed.links(tagId: tagB.id, after: nil, limit: 10), [])
    }

    static func anUnknownTagIsAMissingReference(_ b: any ContractBackend) throws {
        try seedWithTags(b)
        var link = Fixture.link()
        link.options = LinkOptions(tagIds: [tagA.id, "biq_tag_none"])
        XCTAssertEqual(b.writeError { [link] tx in try tx.putLink(link) }, .missingReference(.tag))
        XCTAssertNil(try b.committed.link(id: Fixture.linkId)?.options)
    }

    static func theClickKeepsItsVariantAndTheDomainItsPassQuery(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        var domain = Fixture.domain()
        domain.passQuery = true
        var click = Fixture.click(id: "biq_clk_v", at: ContractTime.now)
        click.variant = 2
        let plain = Fixture.click(id: "biq_clk_p", at: ContractTime.now + 1)
        try b.write { [domain, click] tx in
            try tx.putDomain(domain)
            try tx.insertClick(click)
            try tx.insertClick(plain)
        }
        XCTAssertEqual(try b.committed.domain(Fixture.host)?.passQuery, true)
        XCTAssertEqual(try b.committed.click(id: "biq_clk_v")?.variant, 2)
        XCTAssertNil(try b.committed.click(id: "biq_clk_p")?.variant)
    }
}
