# The harness (back end, SMTP server, worker, app fixtures) is a plugin shared with e2e/.
pytest_plugins = ["tests.harness", "tests.factories"]
