"""An HTTPS server on 127.0.0.1 for the redirect tests: prints its port, then serves
  /ok               200 {"ok": true}
  /to-https         302 to https://127.0.0.1:<its port>/ok
  /to?url=URL       302 to URL (e.g. a plain-http server that must see no request)
with the certificate beside it (localhost-cert.pem, for 127.0.0.1). Standard library only."""
import http.server
import os
import ssl
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/ok":
            body = b'{"ok": true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if path == "/to-https":
            target = "https://127.0.0.1:%d/ok" % self.server.server_address[1]
        elif path == "/to":
            target = urllib.parse.parse_qs(query)["url"][0]
        else:
            self.send_error(404)
            return
        self.send_response(302)
        self.send_header("Location", target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(HERE, "localhost-cert.pem"), os.path.join(HERE, "localhost-key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
