"""The browser table: a loopback web server (``solitaire serve``) and the page it serves.

The page holds no rules: it shows the position the server sends, and sends back actions in
``play``'s notation; the server plays them through the same session, saves and history as the
other front ends. Starlette and uvicorn are imported only here (the optional extra ``web``).
"""
