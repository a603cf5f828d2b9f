import Core

/// What is read about one link besides the link itself: its analytics and its QR code.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let linkReportPaths: JSONValue = [
        "/api/v1/links/{id}/analytics": [
            "get": operation(
                "links.analytics", tag: "Links", summary: "Link analytics",
                description:
                    "Clicks by UTC day and platform, by kind, in-app browser and country, opens by UTC day and match type, and leads, sales and revenue by UTC day and currency with the funnel clicks -> leads -> sales, for the last `days` UTC days (today included), with the totals of the `days` days before (previousPeriod), counted from per-link daily aggregates: the cost does not grow with the number of clicks or sales. Every day and every fixed bucket is present, zero when nothing happened. Countries come from BIQLI_EDGE_GEOIP_DB (unknown without it).",
                parameters: [
                    parameterRef("LinkId"),
                    integerQuery("days", minimum: 1, maximum: 365, default: 30, "UTC days, today included."),
                ],
                answer: 200, "The numbers.", schema: schemaRef("LinkAnalytics"), errors: .reading)
        ],
        "/api/v1/links/{id}/qr.svg": [
            "get": imageOperation(
                "links.qrCodeSVG", mediaType: "image/svg+xml", summary: "The link's QR code as SVG",
                description:
                    "The short URL as a QR code: one path of the dark modules on a white square, in module units (viewBox), size pixels wide, with shape-rendering crispEdges."
            )
        ],
        "/api/v1/links/{id}/qr.png": [
            "get": imageOperation(
                "links.qrCodePNG", mediaType: "image/png", summary: "The link's QR code as PNG",
                description:
                    "The short URL as a QR code: a 1-bit grayscale PNG of size x size pixels, every module the same whole number of pixels, the leftover pixels added to the margin; a code with more modules (margin included) than size gets one pixel per module instead."
            )
        ],
    ]

    static let qrParameters: [JSONValue] = [
        integerQuery("size", minimum: 64, maximum: 2048, default: 512, "The image's width and height in pixels."),
        integerQuery(
            "margin", minimum: 0, maximum: 16, default: 4, "The white quiet zone around the code, in modules."),
        [
            "name": "level", "in": "query",
            "description": "Error correction: L 7 %, M 15 %, Q 25 %, H 30 % of the code may be damaged.",
            "schema": ["type": "string", "enum": ["L", "M", "Q", "H"], "default": "M"],
        ],
    ]

    /// A read that answers an image (not JSON) on success, the API's JSON envelope on errors.
    static func imageOperation(_ id: String, mediaType: String, summary: String, description: String) -> JSONValue {
        let headers: [(String, JSONValue)] = [
            ("X-Biq-Request-Id", ref("headers", "RequestId")),
            (
                "Cache-Control",
                [
                    "description": "The image may be kept for five minutes, by the caller only.",
                    "schema": ["type": "string", "const": "private, max-age=300"],
                ]
            ),
            (
                "Content-Disposition",
                [
                    "description": "inline, with the file name qr-<key>.svg or .png.",
                    "schema": [
                        "type": "string", "pattern": #"^inline; filename="qr-[A-Za-z0-9_-]{1,64}\.(svg|png)"$"#,
                    ],
                ]
            ),
        ]
        let success: JSONValue = [
            "description": "The image.",
            "headers": .object(headers),
            "content": .object([(mediaType, .object([("schema", imageSchema(mediaType))]))]),
        ]
        let errors: [OpenAPIErrorResponse] = .reading
        return .object([
            ("operationId", .string(id)), ("tags", ["Links"]), ("summary", .string(summary)),
            ("description", .string(description)),
            ("parameters", .array([parameterRef("LinkId")] + qrParameters + [parameterRef("RequestId")])),
            ("responses", .object([("200", success)] + errors.map { ($0.status, $0.answer()) })),
        ])
    }

    static func imageSchema(_ mediaType: String) -> JSONValue {
        .object([("type", .string("string")), ("contentMediaType", .string(mediaType))])
    }

    static let linkAnalyticsSchema = record(
        [
            "linkId": ["type": "string", "pattern": idPattern("biq_lnk_")],
            "shortUrl": ["type": "string"],
            "days": ["type": "integer", "minimum": 1, "maximum": 365],
            "since": [
                "type": "string", "format": "date-time", "description": "The start (00:00 UTC) of the first day.",
            ],
            "until": timestamp,
            "clicks": record([
                "total": counter,
                "byPlatform": counters(clickPlatforms),
                "byKind": counters(clickKinds),
                "byInAppBrowser": openCounters(
                    "none", pattern: "^[a-z0-9_-]{1,32}$",
                    "By in-app browser tag (instagram, facebook, tiktok, webview...); none for regular browsers."),
                "byCountry": openCounters(
                    "unknown", pattern: "^([A-Z]{2}|unknown)$",
                    "By ISO 3166-1 alpha-2 country code; unknown without a GeoIP database or a match."),
                "byReferrer": openCounters(
                    "none", pattern: "^(none|other|[a-z0-9.-]{1,253}|\\[[0-9a-f:.]{1,45}\\])$",
                    "By referring site: the host of the visit's Referer, lowercased, without www. (the page is never kept); none when the visit named none. The 50 sites with the most clicks, the others summed as other. Client-side clicks (track/click) count as none."
                ),
                "daily": [
                    "type": "array", "description": "One entry per UTC day, oldest first.",
                    "items": record([
                        "day": ["type": "string", "format": "date"], "total": counter,
                        "byPlatform": counters(clickPlatforms),
                    ]),
                ],
            ]),
            "opens": record([
                "total": counter,
                "firstOpens": counter,
                "installs": [
                    "type": "integer", "minimum": 0,
                    "description":
                        "First opens with a match (a match type other than none): the installs the link brought.",
                ],
                "byMatchType": counters(matchTypes),
                "daily": [
                    "type": "array", "description": "One entry per UTC day, oldest first.",
                    "items": record([
                        "day": ["type": "string", "format": "date"], "total": counter,
                        "byMatchType": counters(matchTypes),
                    ]),
                ],
            ]),
            "conversions": record(
                [
                    "leads": counter, "sales": counter, "revenue": revenue,
                    "funnel": record(
                        ["clicks": counter, "leads": counter, "sales": counter],
                        description:
                            "Clicks (without preview bots) -> leads -> sales of the period: numbers of events, not of distinct people; a step can pass the one before it (leads of earlier clicks, several sales per lead)."
                    ),
                    "daily": [
                        "type": "array",
                        "description": "One entry per UTC day (of the event's occurredAt), oldest first.",
                        "items": record([
                            "day": ["type": "string", "format": "date"], "leads": counter, "sales": counter,
                            "revenue": revenue,
                        ]),
                    ],
                ],
                description:
                    "Leads and sales attributed to the link that occurred in the period, from per-link daily counts (the cost does not grow with their number)."
            ),
            "byVariant": [
                "type": "array",
                "description":
                    "The link's A/B test (variants), one entry per arm by index: every arm the link has now (zeros when none of its clicks is in the period), and every arm seen in the period that the link no longer has (url and weight null). Clicks are the web visits that got the arm; leads and sales reach an arm through their click (clickId, or the customer's click), counted on the UTC day they occurred. Empty for a link without variants and none seen.",
                "items": record([
                    "variant": ["type": "integer", "minimum": 0, "maximum": 4],
                    "url": ["type": ["string", "null"]],
                    "weight": ["type": ["integer", "null"], "minimum": 1, "maximum": 100],
                    "clicks": counter, "leads": counter, "sales": counter, "revenue": revenue,
                ]),
            ],
            "previousPeriod": record(
                [
                    "since": ["type": "string", "format": "date-time"],
                    "until": [
                        "type": "string", "format": "date-time",
                        "description": "The start of the period's first day: the previous period ends there.",
                    ],
                    "clicks": counter, "installs": counter, "leads": counter, "sales": counter, "revenue": revenue,
                ],
                description: "The totals of the `days` UTC days before the period, to compare with."),
        ],
        description:
            "A link's clicks (preview bots' visits included, as kind preview_bot and platform bot), the open events that named it, and its leads and sales, over the last `days` UTC days."
    )

    /// Sales' amounts by currency: lowercase ISO 4217 codes, integers in minor units.
    static let revenue: JSONValue = [
        "type": "object",
        "description":
            "The sales' amounts by currency (lowercase ISO 4217), in the currency's minor unit; only the currencies sold in. Exact integers of any size, every digit written: past 2^53 - 1 a JavaScript JSON.parse rounds them and past 2^63 - 1 (from 1,025 sales of the largest amount) a 64-bit integer cannot hold them: read them as big integers or decimals where that can happen.",
        "propertyNames": ["pattern": "^[a-z]{3}$"],
        "additionalProperties": ["type": "integer", "minimum": 0],
    ]

    /// Counters by open-ended names: `always` is always there, the others when not zero.
    static func openCounters(_ always: String, pattern: String, _ description: String) -> JSONValue {
        [
            "type": "object", "description": .string(description), "required": [.string(always)],
            "propertyNames": ["pattern": .string(pattern)], "additionalProperties": counter,
        ]
    }

    static let linkReportSchemas: JSONValue = ["LinkAnalytics": linkAnalyticsSchema]
}
