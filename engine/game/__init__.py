"""A game put together from its rule file: the ``Game`` facade, the flow interpreter, loading.

This layer sits above the vocabulary (``engine/vocab``), which sits above the core
(``engine/core``: cards, positions, keys, the layout view); imports point down only.
"""
