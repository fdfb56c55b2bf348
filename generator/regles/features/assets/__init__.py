"""The theme's own files in the site: one stylesheet, one script, templates, CSP."""
