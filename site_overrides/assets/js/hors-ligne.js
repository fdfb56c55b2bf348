/* hors-ligne */
