"""The built-in games as the read side knows them: one module each, registering its
:class:`~vistlog.projections.variants.Reading` (:func:`~vistlog.projections.variants.reading_of` imports them by
name when a game is first looked up)."""
