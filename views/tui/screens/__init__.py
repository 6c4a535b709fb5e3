"""The TUI's screens: graph browser, runs, partitions, log, and the modal ones."""
