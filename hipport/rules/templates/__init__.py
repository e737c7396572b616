"""Jinja2 templates of the Markdown support tables (a package so that the wheel ships them)."""
