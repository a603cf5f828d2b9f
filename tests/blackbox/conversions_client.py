"""A server-side conversions client written from ../shared/spec/conversions-contract.md (not from
the PHP SDK's code): what the official SDK puts on the wire, byte for byte, and how it retries.

- `POST {base}/v1/track/lead|sale` with `Authorization: Bearer`, `Content-Type` and `Accept:
  application/json`, `Idempotency-Key` (the caller's, else the body's eventId), `X-Biq-Request-Id`
  (the caller's, else `req_<uuid4>`, the same on every retry), `X-Biq-Client(-Version)`;
- the body as PHP's json_encode with JSON_UNESCAPED_SLASHES writes it: insertion order, explicit
  nulls kept, an empty metadata as `[]`, non-ASCII as \\uXXXX (emoji as surrogate pairs);
- a sale's eventId, when none is given and an invoice is: `invoice_` + base64url (no padding) of
  SHA-256 of `<processor>:<invoice>` (both trimmed, processor `custom` by default), the processor
  itself not sent when the caller gave none;
- retries of 408, 425, 429 and >= 500, twice at most, after `Retry-After` (seconds or an HTTP
  date, at most 60 s) or 250 ms doubling with jitter."""
import base64, email.utils, hashlib, json, random, time, uuid
import http.client
import urllib.parse


class ApiError(Exception):
    def __init__(self, status, code, message, details, request_id, body):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.details, self.request_id, self.body = (
            status, code, message, details, request_id, body)


class Result:
    def __init__(self, status, headers, body, attempts, request_id):
        self.status, self.headers, self.body, self.attempts, self.request_id = (
            status, headers, body, attempts, request_id)


def php_json(value):
    """json_encode($value, JSON_UNESCAPED_SLASHES): compact, \\u escapes, `/` as is; an empty PHP
    array (here: an empty dict or list) is `[]`."""
    def fix(v):
        if isinstance(v, dict):
            return [] if not v else {k: fix(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        return v
    return json.dumps(fix(value), separators=(",", ":"), ensure_ascii=True).encode()


def invoice_event_id(invoice_id, payment_processor=None):
    processor = (payment_processor or "custom").strip() or "custom"
    digest = hashlib.sha256(f"{processor}:{invoice_id.strip()}".encode()).digest()
    return "invoice_" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


class Conversions:
    RETRY_STATUSES = {408, 425, 429}

    def __init__(self, key, base_url, client="biqli-php", version="1.0.0", max_retries=2, timeout=10,
                 sleep=time.sleep):
        self.key, self.base = key, base_url.rstrip("/")
        self.client, self.version, self.max_retries, self.timeout, self.sleep = (
            client, version, max_retries, timeout, sleep)

    # -------------------------------------------------------------- the calls

    def lead(self, *, event_name, customer_external_id, click_id=None, event_id=None, customer_name=None,
             customer_email=None, customer_avatar=None, occurred_at=None, metadata=None, idempotency_key=None,
             request_id=None):
        body = {
            "clickId": click_id,
            "eventId": event_id or "evt_" + str(uuid.uuid4()),
            "eventName": event_name,
            "customerExternalId": customer_external_id,
            "customerName": customer_name,
            "customerEmail": customer_email,
            "customerAvatar": customer_avatar,
            "occurredAt": occurred_at,
            "metadata": metadata if metadata is not None else {},
        }
        return self.send("lead", body, idempotency_key, request_id)

    def sale(self, *, customer_external_id, amount, currency=None, click_id=None, event_id=None, event_name=None,
             customer_name=None, customer_email=None, customer_avatar=None, payment_processor=None,
             invoice_id=None, occurred_at=None, metadata=None, idempotency_key=None, request_id=None):
        if event_id is None:
            event_id = invoice_event_id(invoice_id, payment_processor) if invoice_id else "evt_" + str(uuid.uuid4())
        body = {
            "clickId": click_id,
            "eventId": event_id,
            "eventName": event_name,
            "customerExternalId": customer_external_id,
            "customerName": customer_name,
            "customerEmail": customer_email,
            "customerAvatar": customer_avatar,
            "amount": amount,
            "currency": currency,
        }
        if payment_processor is not None:
            body["paymentProcessor"] = payment_processor
        body.update({"invoiceId": invoice_id, "occurredAt": occurred_at,
                     "metadata": metadata if metadata is not None else {}})
        return self.send("sale", body, idempotency_key, request_id)

    # -------------------------------------------------------------- the wire

    def headers(self, idempotency_key, request_id):
        return {
            "Authorization": "Bearer " + self.key,
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Idempotency-Key": idempotency_key,
            "X-Biq-Request-Id": request_id,
            "X-Biq-Client": self.client,
            "X-Biq-Client-Version": self.version,
        }

    def send(self, kind, body, idempotency_key=None, request_id=None):
        key = idempotency_key or body["eventId"]
        request_id = request_id or "req_" + str(uuid.uuid4())
        raw = php_json(body)
        url = urllib.parse.urlsplit(f"{self.base}/v1/track/{kind}")
        attempt = 0
        while True:
            attempt += 1
            status, headers, payload = self.post(url, raw, self.headers(key, request_id))
            if (status in self.RETRY_STATUSES or status >= 500) and attempt <= self.max_retries:
                self.sleep(self.delay(attempt, headers.get("retry-after")))
                continue
            return self.read(status, headers, payload, attempt, request_id)

    def post(self, url, raw, headers):
        conn_type = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        conn = conn_type(url.hostname, url.port, timeout=self.timeout)
        try:
            conn.request("POST", url.path, body=raw, headers=headers)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    @staticmethod
    def delay(attempt, retry_after):
        if retry_after:
            if retry_after.strip().isdigit():
                return min(60.0, float(retry_after.strip()))
            try:
                when = email.utils.parsedate_to_datetime(retry_after).timestamp()
                return max(0.0, min(60.0, when - time.time()))
            except (TypeError, ValueError):
                pass
        base = 0.25 * (2 ** (attempt - 1))
        return base + random.uniform(0, base / 2)

    @staticmethod
    def read(status, headers, payload, attempts, request_id):
        try:
            body = json.loads(payload)
        except ValueError:
            raise ApiError(status, "invalid_response", "not JSON", {}, None, payload)
        if not isinstance(body, dict):
            raise ApiError(status, "invalid_response", "not an object", {}, None, payload)
        if 200 <= status < 300:
            return Result(status, headers, body, attempts, request_id)
        error = body.get("error") or {}
        raise ApiError(status, error.get("code"), error.get("message"), error.get("details") or {},
                       body.get("request_id") or headers.get("x-biq-request-id"), body)
