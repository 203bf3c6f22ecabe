"""The games vistlog ships, each a package of its own: :mod:`~vistlog.events.games.preferans` (Russian
preferans), :mod:`~vistlog.events.games.solo_whist` (вист-соло) and :mod:`~vistlog.events.games.serbian`.

A package declares its game once, as its ``VARIANT`` (a :class:`~vistlog.events.variant.Variant`: its name, kind of
log, title, state machine, options, scoring and deal modes), registered in :data:`vistlog.events.variants.VARIANTS`;
its read side is the package of the same name in :mod:`vistlog.projections.games`. Nothing outside a game's two
packages asks which game it is.
"""
