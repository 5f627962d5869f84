"""An Ichnaea-format geolocate service for GeoClue's tests, on 127.0.0.1 (Python standard library only).

Usage: geolocate-server.py PORT RESPONSE_FILE REQUEST_LOG [DELAY]
Answers every POST with RESPONSE_FILE's body (200, application/json), DELAY seconds after the
request (default 0), and appends each request's path and body to REQUEST_LOG, one line each.
"""
import http.server
import socketserver
import sys
import time

port, response_file, request_log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
with open(response_file, "rb") as f:
    response = f.read()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with open(request_log, "a") as log:
            log.write("%s %s\n" % (self.path, body.decode("utf-8", "replace")))
        time.sleep(delay)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(response)))
        self.end_headers()
        self.wfile.write(response)

    def log_message(self, format, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


Server(("127.0.0.1", port), Handler).serve_forever()
