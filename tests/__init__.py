"""The test suite, laid out like the source: a folder per subpackage or concern."""
