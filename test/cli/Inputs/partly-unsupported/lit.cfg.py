# A suite of two tests, one of which needs a feature this configuration never has.
import lit.formats
config.name = "partly-unsupported"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".txt"]
