"""gir's command-line tools: gir-opt, gir-translate and gir-run."""
