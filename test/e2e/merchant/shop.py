#!/usr/bin/env python3
"""A merchant's shop server that takes payments through Checkout Standard, written as a
production integration in Python is (standard library only), and configured only with the
payment service's base URL and the merchant's secret key:

    KORAPAY_BASE_URL=http://127.0.0.1:4010 KORAPAY_SECRET_KEY=sk_test_... python3 shop.py

It knows nothing of the sandbox: pointed at the live service, it would run as it is.

- POST /checkout {amount, currency, customer, metadata?, channels?, default_channel?, narration?}:
  makes a reference, initializes the charge (POST /merchant/api/v1/charges/initialize) with its
  own return and webhook URLs, keeps the order, and sends the browser to `checkout_url` (303; the
  body also has the reference and the URL).
- POST /webhooks/korapay: verifies `x-korapay-signature` (hex HMAC-SHA256, keyed with the secret
  key, of `data` serialized compactly, as docs/behaviour.md#webhook-signature says), refuses a bad one with 401,
  and records the event against the order whose reference is `data.reference`.
- GET /return?reference=...: where the checkout sends the customer back; the charge is queried
  (GET /merchant/api/v1/charges/{reference}) and its status recorded, as the service's
  documentation asks (the redirect alone proves nothing).
- GET /orders/{reference}: the shop's own record of an order (what the tests compare).

Prints `shop listening on http://127.0.0.1:PORT` once it listens (PORT from SHOP_PORT, default 0:
any free port).
"""

import hashlib
import hmac
import json
import os
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE_URL = os.environ["KORAPAY_BASE_URL"].rstrip("/")
SECRET_KEY = os.environ["KORAPAY_SECRET_KEY"]

orders = {}
unmatched_webhooks = []
lock = threading.Lock()


def korapay(method, path, body=None):
    """Calls the payment API with the secret key; returns (HTTP status, parsed JSON answer)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(BASE_URL + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + SECRET_KEY)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode("utf-8") or "null")


def signature_of(data, ensure_ascii):
    """Hex HMAC-SHA256 of `data` serialized compactly (JSON.stringify's form)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=ensure_ascii)
    return hmac.new(SECRET_KEY.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


class Shop(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def own_url(self, path):
        host, port = self.server.server_address[:2]
        return "http://%s:%d%s" % (host, port, path)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length)

    def answer(self, status, body, headers=None, content_type="application/json"):
        raw = body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/checkout":
            return self.checkout(json.loads(self.read_body().decode("utf-8")))
        if path == "/webhooks/korapay":
            return self.webhook(self.read_body())
        self.answer(404, {"error": "not found"})

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/return":
            return self.back_from_checkout(urllib.parse.parse_qs(url.query).get("reference", [""])[0])
        if url.path.startswith("/orders/"):
            reference = urllib.parse.unquote(url.path[len("/orders/"):])
            with lock:
                order = orders.get(reference)
                view = json.loads(json.dumps(order)) if order else None
                unmatched = list(unmatched_webhooks)
            if view is None:
                return self.answer(404, {"error": "no such order", "unmatched_webhooks": unmatched})
            view["unmatched_webhooks"] = unmatched
            return self.answer(200, view)
        self.answer(404, {"error": "not found"})

    def checkout(self, cart):
        reference = "order-" + uuid.uuid4().hex
        request = {
            "amount": cart["amount"],
            "currency": cart["currency"],
            "reference": reference,
            "customer": cart["customer"],
            "redirect_url": self.own_url("/return"),
            "notification_url": self.own_url("/webhooks/korapay"),
            "narration": cart.get("narration", "Order " + reference),
            "merchant_bears_cost": cart.get("merchant_bears_cost", True),
        }
        for field in ("metadata", "channels", "default_channel"):
            if field in cart:
                request[field] = cart[field]
        status, answer = korapay("POST", "/merchant/api/v1/charges/initialize", request)
        if status != 200 or not answer.get("status"):
            return self.answer(502, {"error": "could not start the payment", "status": status, "answer": answer})
        checkout_url = answer["data"]["checkout_url"]
        with lock:
            orders[reference] = {
                "reference": reference,
                "sent": request,
                "initialize": answer,
                "checkout_url": checkout_url,
                "webhooks": [],
                "returns": [],
                "paid": False,
            }
        self.answer(303, {"reference": reference, "checkout_url": checkout_url}, {"Location": checkout_url})

    def webhook(self, raw):
        given = self.headers.get("x-korapay-signature", "")
        try:
            body = json.loads(raw.decode("utf-8"))
            data = body["data"]
        except (ValueError, KeyError, TypeError):
            return self.answer(400, {"error": "bad body"})
        # JSON.stringify's form: compact, key order as received, non-ASCII as UTF-8 (not \u escapes)
        verified = hmac.compare_digest(signature_of(data, ensure_ascii=False), given)
        record = {
            "event": body.get("event"),
            "data": data,
            "verified": verified,
            # the form of json.dumps' default (non-ASCII as \u escapes): kept to show it differs
            "verified_with_ascii_escapes": hmac.compare_digest(signature_of(data, ensure_ascii=True), given),
        }
        if not verified:
            with lock:
                unmatched_webhooks.append(record)
            return self.answer(401, {"error": "bad signature"})
        with lock:
            order = orders.get(data.get("reference"))
            if order is None:
                unmatched_webhooks.append(record)
            else:
                order["webhooks"].append(record)
                if body.get("event") == "charge.success" and data.get("status") == "success":
                    order["paid"] = True
        self.answer(200, {"ok": True})

    def back_from_checkout(self, reference):
        status, answer = korapay("GET", "/merchant/api/v1/charges/" + urllib.parse.quote(reference, safe=""))
        charge = answer.get("data") if isinstance(answer, dict) else None
        with lock:
            order = orders.get(reference)
            if order is None:
                return self.answer(404, "<p>Unknown order</p>", content_type="text/html; charset=utf-8")
            order["returns"].append({
                "query_status": status,
                "status": charge and charge.get("status"),
                "amount": charge and charge.get("amount"),
                "amount_paid": charge and charge.get("amount_paid"),
                "reference": charge and charge.get("reference"),
                "attempts": charge and len(charge.get("payment_attempts") or []),
            })
            paid = charge is not None and charge.get("status") == "success"
        text = "Thank you: your payment was received." if paid else "Your payment did not go through."
        self.answer(200, "<!doctype html><p>%s</p>" % text, content_type="text/html; charset=utf-8")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("SHOP_PORT", "0"))), Shop)
    server.daemon_threads = True
    print("shop listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
