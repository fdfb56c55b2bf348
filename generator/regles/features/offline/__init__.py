"""Offline reading: web app manifest, service worker, precache list, fallback page."""
