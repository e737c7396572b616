"""Translator passes.  Each takes a :class:`~hipport.cxx.context.Context` and appends edits,
diagnostics and statistics to it; none of them builds output text."""
