"""The full-screen table (Textual): ``solitaire play GAME`` on a terminal.

Textual is imported only when a table opens (``app`` is imported by ``play`` then), so line
mode, pipes and ``--help`` never pay for it. The table drives line mode's player: one engine,
one way of saving and recording games.
"""
