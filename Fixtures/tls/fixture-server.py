"""An HTTPS server on 127.0.0.1 serving recorded bodies, for the CA-environment tests and
`make bench`: prints its port, then answers every GET whose path starts with PREFIX with
FILE's bytes (the longest matching prefix wins; 404 otherwise; a POST is answered as a GET
after its body is read), over HTTP/1.1 with
keep-alive, with the certificate beside it (localhost-cert.pem, for 127.0.0.1).

  fixture-server.py [--announce] [--together N] PREFIX=FILE [PREFIX=FILE ...]

With --announce it prints "accepted" on a line of its own as it accepts each connection
(before its TLS handshake): a test learns that a connection was made while the client has
sent nothing (the preconnect tests).

With --together N it holds the answers to the first N requests until all N have arrived (or
20 s have passed): a client that sends them side by side gets them answered side by side, one
that waits for each answer before it sends the next waits 20 s and shows it (CATrustTests).

GET /stats answers {"connections": N, "requests": N}: the TLS connections accepted
(each one a handshake) and the requests served, the stats request not counted.
Standard library only (/usr/bin/python3)."""
import http.server
import json
import os
import ssl
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROUTES = []
ARGUMENTS = sys.argv[1:]
ANNOUNCE = "--announce" in ARGUMENTS
TOGETHER = 0
if "--together" in ARGUMENTS:
    at = ARGUMENTS.index("--together")
    TOGETHER = int(ARGUMENTS[at + 1])
    del ARGUMENTS[at:at + 2]
for argument in (a for a in ARGUMENTS if a != "--announce"):
    prefix, _, path = argument.partition("=")
    with open(path, "rb") as file:
        ROUTES.append((prefix, file.read()))
ROUTES.sort(key=lambda route: -len(route[0]))
COUNTS = {"connections": 0, "requests": 0}
LOCK = threading.Lock()
ARRIVED = threading.Condition(LOCK)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as web servers set on keep-alive connections (nginx's tcp_nodelay): without
    # it the body, written after the headers, waits for the client's delayed ACK (~40 ms) on
    # every request after a connection's first.
    disable_nagle_algorithm = True

    def do_GET(self):
        if self.path == "/stats":
            with LOCK:
                self.answer(200, json.dumps(COUNTS).encode())
            return
        with ARRIVED:
            COUNTS["requests"] += 1
            if COUNTS["requests"] <= TOGETHER:
                ARRIVED.notify_all()
                ARRIVED.wait_for(lambda: COUNTS["requests"] >= TOGETHER, timeout=20)
        for prefix, body in ROUTES:
            if self.path.startswith(prefix):
                self.answer(200, body)
                return
        self.answer(404, b'{"error": "not found"}')

    def do_POST(self):
        # A POST (the Wi-Fi geolocate request in `make bench`'s RTT rows) is answered as a GET.
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.do_GET()

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

    def setup(self):
        # The TLS handshake runs here, in the connection's own thread, as a web server runs
        # connections' handshakes side by side: done in accept(), one connection's handshake
        # held up the next's by a round trip.
        self.request.do_handshake()
        super().setup()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that refuses the certificate ends its handshake: no traceback

    def get_request(self):
        connection = super().get_request()
        with LOCK:
            COUNTS["connections"] += 1
            if ANNOUNCE:
                print("accepted", flush=True)
        return connection


server = Server(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(HERE, "localhost-cert.pem"), os.path.join(HERE, "localhost-key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
print(server.server_address[1], flush=True)
server.serve_forever()
