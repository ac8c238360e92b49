"""The game service: ``arbiter serve``. Another way in for people, beside ``cli``.

It owns one store, keeps active games warm, applies commands through the same engine as the
command line, and serves an HTTP/JSON API (``api``), a live event stream and a web table per
seat. Each seat holds a bearer token that acts only as that seat and sees only its view.
"""
