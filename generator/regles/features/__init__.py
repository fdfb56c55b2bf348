"""The generator's features, one folder each; each registers the stages it feeds."""
