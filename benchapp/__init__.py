"""The bench's own app, not the product's: the one-row write endpoint (``POST
/api/bench/write``) that bench/api_moves.py measures as the floor of the stack, and the table it
writes. Installed (mayi_site/settings.py) and mounted on the API (mayi_site/api.py) only when
``MAYI_BENCH_ENDPOINTS`` is on; nothing else imports it."""
