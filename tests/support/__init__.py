"""What the tests share: Hypothesis strategies, built files, samples, paths, the CLI runner."""
