"""The HTTP port: Connect and gRPC-Web over Hypercorn, and the web board's static files."""
