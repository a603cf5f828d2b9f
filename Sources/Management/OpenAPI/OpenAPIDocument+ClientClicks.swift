import Core

/// Client-side click tracking (issue 25 item 3, decision 0027): the workspace's settings,
/// its browser keys, and `POST /api/v1/track/click` with its CORS preflight, which pages
/// call with a browser key rather than a secret key.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box tests keep it true to the routes and answers.
extension OpenAPIDocument {
    /// `AllowedHostnames`: an exact lower-case hostname (as a domain's), a `*.` wildcard over
    /// one, or `localhost`.
    static let allowedHostname: JSONValue = [
        "anyOf": [
            ["const": "localhost"],
            hostname(),
            [
                "type": "string", "maxLength": 255,
                "pattern": .string(#"^\*\.("# + labelPattern + #"\.)+"# + labelPattern + "$"),
                "not": ["pattern": #"\.[0-9]+$"#],
            ],
        ],
        "description":
            "shop.example.com matches that host only; *.example.com every host under example.com (not example.com itself); localhost for development. Scheme and port do not matter.",
    ]

    /// `Authorization` or `Content-Type`, in any case.
    static let allowedRequestHeader = anyCase("Authorization") + "|" + anyCase("Content-Type")

    static let browserKeyIdParameter = pathParameter(
        "id", ["type": "string", "pattern": idPattern("bk_")], "The browser key's id (bk_...).")

    static let originParameter: JSONValue = [
        "name": "Origin", "in": "header", "required": true,
        "description":
            "The page's origin, as the browser sends it: an allowed hostname (any scheme of http and https, any port). Absent: 403 origin_required; not allowed: 403 origin_not_allowed.",
        "schema": ["type": "string", "minLength": 1, "maxLength": 300],
    ]

    static let trackClickPreflight: JSONValue = [
        "operationId": "track.clickPreflight", "tags": ["Client-side click tracking"],
        "summary": "CORS preflight of track/click",
        "description":
            "What a browser asks before the script's POST. From an allowed origin, for a POST with at most Authorization and Content-Type: 204 with Access-Control-Allow-Origin (the origin), -Methods POST, -Headers Authorization, Content-Type, Max-Age 600 and Vary: Origin. Anything else is refused, without Access-Control-Allow-Origin, so the browser never sends the call.",
        "security": [],
        "parameters": [
            originParameter,
            [
                "name": "Access-Control-Request-Method", "in": "header", "required": true,
                "description": "POST; anything else (or absent) is 400 invalid_preflight.",
                "schema": ["type": "string", "const": "POST"],
            ],
            [
                "name": "Access-Control-Request-Headers", "in": "header", "required": false,
                "description":
                    "Comma-separated header names, among Authorization and Content-Type only (any case); another is 400 invalid_preflight.",
                "schema": [
                    "type": "string", "minLength": 1, "maxLength": 100,
                    "pattern": .string("^(" + allowedRequestHeader + ")( ?, ?(" + allowedRequestHeader + "))*$"),
                ],
            ],
            parameterRef("RequestId"),
        ],
        "responses": [
            "204": [
                "description": "A valid preflight from an allowed origin.",
                "headers": [
                    "Access-Control-Allow-Origin": ["schema": ["type": "string"]],
                    "Access-Control-Allow-Methods": ["schema": ["type": "string", "const": "POST"]],
                    "Access-Control-Allow-Headers": ["schema": ["type": "string"]],
                    "Access-Control-Max-Age": ["schema": ["type": "string", "const": "600"]],
                    "Vary": ["schema": ["type": "string"]],
                ],
            ],
            "400": clickError(
                [.invalidPreflight], "not a CORS preflight of a POST with at most Authorization and Content-Type."),
            "403": clickError(
                [.originRequired, .originNotAllowed, .hostnameNotConfigured, .clientClickTrackingDisabled],
                "no Origin, an origin the workspace does not allow, no hostname allowed yet, or the workspace's switch is off."
            ),
            "414": OpenAPIErrorResponse.uriTooLong.reference,
        ],
    ]

    static func clickError(_ codes: [ManagementErrorCode], _ meaning: String, retryAfter: Bool = false) -> JSONValue {
        var headers: [(String, JSONValue)] = standardHeaders
        if retryAfter { headers.append(("Retry-After", ["schema": ["type": "string", "pattern": "^[1-9][0-9]*$"]])) }
        return errorAnswer(codes: codes.map(\.rawValue), meaning: meaning, envelope: "ApiError", headers: headers)
    }

    static let trackClick: JSONValue = [
        "operationId": "track.click", "tags": ["Client-side click tracking"], "summary": "Track a click from a page",
        "description":
            "What analytics-v3.js (and v2) sends from a page reached through the site's own URL with a query value (/?via=KEY): records a click of the link https://<domain>/<key>, durable before the answer, and answers its id (the script keeps it as the bq_id cookie). Needs a workspace browser key (biqli_pk_...), the workspace's client-click tracking on with the page's hostname allowed, and the link (or its domain) tracking conversions. Every answer to a request with a well-formed Origin echoes it in Access-Control-Allow-Origin (errors too) and exposes X-Biq-Request-Id and Retry-After.",
        "security": [["browserKey": []]],
        "parameters": [originParameter, parameterRef("RequestId")],
        "requestBody": ["required": true, "content": jsonContent(schemaRef("ClientClickRequest"))],
        "responses": [
            "200": [
                "description": "The click (clickId null for a bot's or crawler's rendering: no click).",
                "headers": .object(
                    standardHeaders + [
                        ("Access-Control-Allow-Origin", ["schema": ["type": "string"]]),
                        ("Vary", ["schema": ["type": "string"]]),
                    ]),
                "content": jsonContent(schemaRef("ClientClickAnswer")),
            ],
            "400": clickError(
                [.validationError],
                "no body, or not a JSON object (or over 4096 values); an X-Biq-Request-Id that breaks its rule."),
            "401": clickError([.invalidToken], "no usable browser key (a secret or mobile key is refused here)."),
            "403": clickError(
                [.originRequired, .originNotAllowed, .hostnameNotConfigured, .clientClickTrackingDisabled],
                "no Origin, an origin the workspace does not allow, no hostname allowed yet, or client-click tracking off (the workspace's switch, or the link does not track conversions)."
            ),
            "404": clickError([.resourceNotFound], "no such link, or it is disabled."),
            "413": OpenAPIErrorResponse.contentTooLarge.reference,
            "414": OpenAPIErrorResponse.uriTooLong.reference,
            "422": clickError([.validationError], "a field breaks its rule (details.errors)."),
            "429": clickError(
                [.rateLimitExceeded], "too many calls from this address or with this key; wait Retry-After seconds.",
                retryAfter: true),
            "500": clickError([.internalServerError], "the click could not be written; retry."),
        ],
    ]

    static let clientClickPaths: JSONValue = [
        "/api/v1/client-click-tracking": [
            "get": operation(
                "clientClickTracking.get", tag: "Client-side click tracking", summary: "Get the settings",
                description:
                    "Whether track/click answers, and the hostnames allowed to call it. Needs client_clicks.read.",
                answer: 200, "The settings.", schema: schemaRef("ClientClickTracking"), errors: .listing),
            "patch": operation(
                "clientClickTracking.update", tag: "Client-side click tracking", summary: "Change the settings",
                description:
                    "JSON merge: enabled, and hostnames (the whole list, replaced). Needs client_clicks.write.",
                writes: true, answer: 200, "The settings.", schema: schemaRef("ClientClickTracking"),
                body: "ClientClickTrackingUpdate",
                errors: [
                    .badRequest, .unauthorized, .forbidden, .conflict, .contentTooLarge, .uriTooLong, .unprocessable,
                    .internalError,
                ]),
        ],
        "/api/v1/browser-keys": [
            "get": operation(
                "browserKeys.list", tag: "Client-side click tracking", summary: "List browser keys",
                description:
                    "Ordered by id, paginated; revoked keys too, never the keys themselves. Needs client_clicks.read.",
                parameters: pageParameters, answer: 200, "A page of browser keys.", schema: schemaRef("BrowserKeyList"),
                errors: .listing),
            "post": operation(
                "browserKeys.create", tag: "Client-side click tracking", summary: "Create a browser key",
                description:
                    "A workspace browser key (biqli_pk_...) for analytics-v3.js (or v2): it grants only track/click. The answer's key is shown this once (a replay answers key: null). Needs client_clicks.write.",
                writes: true, answer: 201, "The new key.", schema: schemaRef("BrowserKey"),
                links: .object(pathLinks("id", to: "id", [("RevokeBrowserKey", "browserKeys.revoke")])),
                body: "BrowserKeyCreate", errors: .creating),
        ],
        "/api/v1/browser-keys/{id}": [
            "delete": operation(
                "browserKeys.revoke", tag: "Client-side click tracking", summary: "Revoke a browser key",
                description:
                    "Calls with it are refused (401) from the next one on; it stays listed with revokedAt. Revoking a revoked key changes nothing. Needs client_clicks.write.",
                parameters: [browserKeyIdParameter], writes: true, answer: 200, "The revoked key.",
                schema: schemaRef("BrowserKey"), errors: .deleting)
        ],
        "/api/v1/track/click": ["post": trackClick, "options": trackClickPreflight],
    ]

    static let nullableTimestamp: JSONValue = [
        "type": ["string", "null"], "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC.",
    ]

    static let clientClickSchemas: JSONValue = [
        "ClientClickTracking": record([
            "enabled": boolean("Whether track/click answers (403 client_click_tracking_disabled when off)."),
            "hostnames": ["type": "array", "items": ["type": "string"]],
            "updatedAt": nullableTimestamp,
        ]),
        "ClientClickTrackingUpdate": object(
            [
                ("enabled", boolean("Turns track/click on or off.")),
                (
                    "hostnames",
                    [
                        "type": "array", "maxItems": 50, "uniqueItems": true, "items": allowedHostname,
                        "description": "The hostnames whose pages may call track/click: at most 50, no repeats.",
                    ]
                ),
            ], required: []),
        "BrowserKey": record([
            "id": ["type": "string", "pattern": idPattern("bk_")],
            "name": ["type": "string"], "hint": ["type": "string", "description": "The key's last four characters."],
            "key": [
                "type": ["string", "null"], "pattern": "^biqli_pk_[A-Za-z0-9_-]{43}$",
                "description": "The key, in the creation's answer only.",
            ],
            "createdAt": timestamp, "revokedAt": nullableTimestamp,
        ]),
        "BrowserKeyCreate": object([("name", text(64))], required: ["name"]),
        "BrowserKeyList": list(of: "BrowserKey", cursorIs: "the last key's id"),
        "ClientClickRequest": object(
            [
                ("domain", hostname("The link's domain.")),
                (
                    "key",
                    [
                        "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                        "description": "The link's key: the query value the page was reached with (?via=KEY).",
                    ]
                ),
                (
                    "url",
                    [
                        "type": ["string", "null"], "maxLength": 2048,
                        "pattern": #"^[Hh][Tt][Tt][Pp][Ss]?://[^\u0000-\u001F\u007F-\u009F]*$"#,
                        "description":
                            "The page's location.href (analytics-v2.js); only its query is read, for the link's dynamic values, and the rest is dropped. Not with query.",
                    ]
                ),
                (
                    "query",
                    [
                        "type": ["string", "null"], "minLength": 1, "maxLength": 2048,
                        "pattern": #"^[^?#\u0000-\u001F\u007F-\u009F][^#\u0000-\u001F\u007F-\u009F]*$"#,
                        "description":
                            "The landing page's query values the page forwards, without ? (ref=alice&utm_source=news; analytics-v3.js sends those its data-forward-params names), for the link's dynamic values. Not with url.",
                    ]
                ),
            ], required: ["domain", "key"]
        )
        .adding(
            "not",
            [
                "required": ["url", "query"],
                "properties": ["url": ["type": "string"], "query": ["type": "string"]],
            ]),
        "ClientClickAnswer": record([
            "clickId": ["type": ["string", "null"], "pattern": idPattern("biq_clk_")],
            "link": record([
                "id": ["type": "string", "pattern": idPattern("biq_lnk_")], "domain": ["type": "string"],
                "key": ["type": "string"], "shortUrl": ["type": "string"],
            ]),
            "request_id": ["type": "string"],
        ]),
    ]
}
