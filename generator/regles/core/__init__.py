"""The build, independent of MkDocs: settings, report, page reading, passes, checks."""
