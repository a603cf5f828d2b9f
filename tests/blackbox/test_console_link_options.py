"""Black-box tests of the console's link options (issue 35, decision 0032): the link form's
rules, A/B variants, UTM, passQuery, expiry (UTC), tags and external id posted through the
API's rules, their errors beside the row and field the API names, "Add a rule" without
script, an edit that keeps what it does not change, the tags page, the links list's tag
filter, and the link page's A/B table. Run on both backends.
"""
import html, re
from html.parser import HTMLParser

from test_console import Browser, console  # noqa: F401 (the fixture)


class FormFields(HTMLParser):
    """What a browser would send for the form with id `form_id`: text-like inputs, hidden
    ones, checked boxes and selected options (no submit button)."""

    def __init__(self, form_id):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.fields = form_id, False, []
        self.select, self.selected = None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and "name" in a:
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value", "on")))
            elif kind != "submit":
                self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select, self.selected = a.get("name"), None
        elif tag == "option" and self.select and ("selected" in a or self.selected is None):
            if "selected" in a or self.selected is None:
                self.selected = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select" and self.inside and self.select:
            self.fields.append((self.select, self.selected or ""))
            self.select = None
        if tag == "form":
            self.inside = False


def form_of(page, form_id="link-form"):
    parser = FormFields(form_id)
    parser.feed(page)
    return parser.fields


def replace(fields, **changes):
    return [(k, changes.pop(k) if k in changes else v) for k, v in fields] + list(changes.items())


def error_of(page, field):
    m = re.search(rf'<p class="field-error" id="{re.escape(field)}-error">([^<]*)</p>', page)
    return html.unescape(m.group(1)) if m else None


def signed_in(console):
    b = Browser(console)
    b.sign_in(console.key)
    return b


def make_tag(b, name, color="green"):
    token = b.csrf("/console/tags")
    status, headers, page = b.post("/console/tags", [("csrf", token), ("name", name), ("color", color)])
    assert status == 303, page
    return b.csrf("/console/tags")


def test_a_link_with_rules_variants_utm_expiry_and_tags_is_made_by_the_form(console):
    b = signed_in(console)
    make_tag(b, "Spring", "teal")
    tag = console.api.get("/api/v1/tags").json["data"][0]
    status, _, page = b.get("/console/links/new")
    fields = replace(
        form_of(page), domain="go.example.com", key="options", url="https://example.com/",
        **{"rule-0-countries": "de at", "rule-0-languages": "de", "rule-0-url": "https://example.de/",
           "variant-0-url": "https://a.example.com/", "variant-0-weight": "70",
           "variant-1-url": "https://b.example.com/", "variant-1-weight": "30",
           "utm_source": "newsletter", "utm_campaign": "spring", "passQuery": "on",
           "expiresAt": "2030-06-01T12:30", "expiredUrl": "https://example.com/over", "externalId": "crm-7"})
    fields += [("rule-0-platforms", "ios"), ("rule-0-devices", "tablet"), ("rule-0-skipApp", "on"),
               ("tagIds", tag["id"])]
    status, headers, page = b.post("/console/links", fields)
    assert status == 303, page
    link_id = headers["location"].rsplit("/", 1)[1]
    link = console.api.get(f"/api/v1/links/{link_id}").json
    assert link["rules"] == [{"if": {"countries": ["DE", "AT"], "platforms": ["ios"], "languages": ["de"],
                                     "devices": ["tablet"]}, "url": "https://example.de/", "skipApp": True}]
    assert link["variants"] == [{"url": "https://a.example.com/", "weight": 70},
                                {"url": "https://b.example.com/", "weight": 30}]
    assert link["utm"] == {"source": "newsletter", "medium": None, "campaign": "spring", "term": None,
                           "content": None}
    assert link["passQuery"] is True
    assert link["expiresAt"].startswith("2030-06-01T12:30:00"), "typed as UTC"
    assert (link["expiredUrl"], link["externalId"], link["tagIds"]) == (
        "https://example.com/over", "crm-7", [tag["id"]])

    # The link's page names the tag and the expiry, and shows the test's arms.
    status, _, page = b.get(f"/console/links/{link_id}")
    assert status == 200
    assert '<span class="tag tag-teal">Spring</span>' in page
    assert '<table id="ab-table" class="ab">' in page
    assert re.search(r'<tr id="ab-arm-1"><th scope="row">B</th><td class="url">https://b.example.com/</td>'
                     r'<td class="number">30\xa0%</td>', page), page
    assert "Not enough data yet" in page and 'id="ab-assumptions"' in page


def test_the_apis_errors_come_back_beside_the_row_and_field_they_name(console):
    b = signed_in(console)
    console.api.link("go.example.com", key="taken", externalId="crm-1")
    status, _, page = b.get("/console/links/new")
    fields = replace(
        form_of(page), domain="go.example.com", key="bad", url="https://example.com/",
        ruleRows="3",
        **{"rule-0-countries": "DE", "rule-0-url": "https://example.de/",
           "rule-1-countries": "FR, France", "rule-1-url": "https://example.fr/",
           "rule-2-languages": "pt", "rule-2-url": "not a url",
           "variant-0-url": "https://a.example.com/", "variant-0-weight": "60",
           "variant-1-url": "https://b.example.com/", "variant-1-weight": "oops",
           "utm_term": "x" * 257, "expiresAt": "soon", "externalId": "crm-1"})
    status, _, page = b.post("/console/links", fields)
    assert status == 422
    assert error_of(page, "rule-1-countries").startswith("rules[1].if.countries[1] must be an ISO 3166-1")
    assert 'value="FR, France" autocomplete="off" spellcheck="false" aria-invalid="true" ' \
           'aria-describedby="rule-1-countries-error"' in page
    assert error_of(page, "rule-2-url").startswith("rules[2].url ")
    assert error_of(page, "rule-0-countries") is None and error_of(page, "rule-0-url") is None
    assert error_of(page, "variant-1-weight").startswith("variants[1].weight ")
    assert error_of(page, "utm_term").startswith("utm.term ")
    assert error_of(page, "expiresAt").startswith("expiresAt must be an RFC 3339")
    assert 'value="soon"' in page, "what was typed comes back"
    assert console.api.get("/api/v1/links?limit=100").json["data"][-1]["key"] != "bad"

    # The external id's conflict (409 from the API) also comes back beside its field.
    fields = replace(form_of(page), **{"rule-1-countries": "FR", "rule-2-url": "https://example.pt/",
                                       "variant-1-weight": "40", "utm_term": "", "expiresAt": ""})
    status, _, page = b.post("/console/links", fields)
    assert status == 422
    assert error_of(page, "externalId").startswith("externalId is already the external id of ")


def test_add_a_rule_gives_the_form_back_with_one_more_row_and_saves_nothing(console):
    b = signed_in(console)
    status, _, page = b.get("/console/links/new")
    assert 'name="ruleRows" value="1"' in page and 'id="rule-1-url"' not in page
    fields = replace(form_of(page), domain="go.example.com", key="grow", url="https://example.com/",
                     **{"rule-0-countries": "BR", "rule-0-url": "https://example.com.br/"})
    status, _, page = b.post("/console/links", fields + [("add", "rule")])
    assert status == 200
    assert 'name="ruleRows" value="2"' in page and 'id="rule-1-url"' in page
    assert 'id="rule-0-countries" name="rule-0-countries" type="text" value="BR"' in page
    assert 'id="key" name="key" type="text" value="grow"' in page
    status, _, page = b.post("/console/links", form_of(page) + [("add", "variant")])
    assert status == 200 and 'id="variant-2-url"' in page and 'name="ruleRows" value="2"' in page
    keys = [link["key"] for link in console.api.get("/api/v1/links?limit=100").json["data"]]
    assert "grow" not in keys
    # The first submit button of the form is "Save link": Enter in a field saves.
    assert re.search(r'<form id="link-form"[^>]*>\s*<input type="hidden" name="csrf"[^>]*>\s*'
                     r'<button type="submit" class="default-action"', page)


def test_an_edit_keeps_the_options_it_does_not_change_and_what_the_form_does_not_show(console):
    b = signed_in(console)
    tag = console.api.post("/api/v1/tags", {"name": "Kept", "color": "purple"}).json
    link = console.api.link(
        "go.example.com", key="keep", url="https://example.com/",
        mobile={"appId": console.app_id, "route": "/keep", "metadata": {"a": 1}},
        rules=[{"if": {"countries": ["DE"], "platforms": ["desktop", "ios"]}, "url": "https://example.de/"}],
        variants=[{"url": "https://a.example.com/", "weight": 50}, {"url": "https://b.example.com/", "weight": 50}],
        utm={"source": "news"}, passQuery=False, expiresAt="2031-01-01T00:00:00.250Z", externalId="ext-keep",
        tagIds=[tag["id"]])
    status, _, page = b.get(f"/console/links/{link['id']}/edit")
    assert status == 200
    assert 'id="expiresAt" name="expiresAt" type="datetime-local" value="2031-01-01T00:00"' in page
    status, headers, page = b.post(f"/console/links/{link['id']}",
                                   replace(form_of(page), url="https://example.com/new"))
    assert status == 303, page
    after = console.api.get(f"/api/v1/links/{link['id']}").json
    for name in ("rules", "variants", "utm", "passQuery", "expiresAt", "externalId", "tagIds", "mobile"):
        assert after[name] == link[name], name
    assert after["url"] == "https://example.com/new"

    # "Add a rule" on the edit form: one more row, the link unchanged.
    status, _, page = b.get(f"/console/links/{link['id']}/edit")
    assert 'name="ruleRows" value="2"' in page
    status, _, page = b.post(f"/console/links/{link['id']}", form_of(page) + [("add", "rule")])
    assert status == 200 and 'name="ruleRows" value="3"' in page and 'id="rule-2-url"' in page
    assert console.api.get(f"/api/v1/links/{link['id']}").json["updatedAt"] == after["updatedAt"]

    # Emptying the rules and unchecking the tag removes them, and only them.
    status, _, page = b.get(f"/console/links/{link['id']}/edit")
    fields = [(k, v) for k, v in form_of(page) if not k.startswith("rule-0-") and k != "tagIds"]
    assert b.post(f"/console/links/{link['id']}", fields)[0] == 303
    after = console.api.get(f"/api/v1/links/{link['id']}").json
    assert (after["rules"], after["tagIds"]) == ([], [])
    assert after["variants"] == link["variants"] and after["expiresAt"] == link["expiresAt"]


def test_tags_are_listed_made_renamed_recoloured_deleted_and_filter_the_links(console):
    b = signed_in(console)
    token = make_tag(b, "Summer", "yellow")
    tag = console.api.get("/api/v1/tags").json["data"][0]
    status, _, page = b.get("/console/tags")
    assert f'<tr id="tag-{tag["id"]}"><th scope="row"><span class="tag tag-yellow">Summer</span></th>' in page
    assert '<span class="swatch tag-yellow" aria-hidden="true"></span>Yellow' in page, "the colour is named"

    status, _, page = b.post("/console/tags", [("csrf", token), ("name", "summer"), ("color", "red")])
    assert status == 422
    assert error_of(page, "name") == f"name is already the name of tag {tag['id']}"
    status, _, page = b.post("/console/tags", [("csrf", token), ("name", "x" * 51), ("color", "red")])
    assert status == 422 and error_of(page, "name").startswith("name ")

    status, _, _ = b.post(f"/console/tags/{tag['id']}",
                          [("csrf", token), (f"name-{tag['id']}", "Autumn"), (f"color-{tag['id']}", "orange")])
    assert status == 303
    renamed = console.api.get(f"/api/v1/tags/{tag['id']}").json
    assert (renamed["name"], renamed["color"]) == ("Autumn", "orange")

    tagged = console.api.link("go.example.com", key="tagged", tagIds=[tag["id"]])
    status, _, page = b.get(f"/console/links?tagId={tag['id']}")
    assert status == 200
    assert f'<tr data-link-id="{tagged["id"]}">' in page and f'<tr data-link-id="{console.link_id}">' not in page
    assert '<span class="tag tag-orange">Autumn</span>' in page
    status, _, page = b.get(f"/console/links?tagId={tag['id']}&q=inv")
    assert 'id="q-error"' in page

    assert b.post(f"/console/tags/{tag['id']}/delete", [("csrf", token)])[0] == 303
    assert console.api.get(f"/api/v1/tags/{tag['id']}").status == 404
    assert console.api.get(f"/api/v1/links/{tagged['id']}").json["tagIds"] == []
