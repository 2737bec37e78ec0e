# lit configuration for roofcheck's command-line suites (cli, tool, report, audit, gpu).
import os
import sys
import shutil
import subprocess

import lit.formats

# Paths of the build come from the site file that CMake writes (build/test/lit.site.cfg.py); ctest passes
# it as --param site=...; a plain `lit test/cli` looks in ./build.
if not hasattr(config, "roofcheck_obj_root"):
    site = lit_config.params.get("site") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "test", "lit.site.cfg.py")
    if not os.path.exists(site):
        lit_config.fatal("no lit.site.cfg.py: build first, or pass --param site=BUILD/test/lit.site.cfg.py")
    lit_config.load_config(config, site)

config.name = "roofcheck"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test", ".cu", ".cpp"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.roofcheck_obj_root, "test")

# The tools under test come first on PATH; FileCheck and not come from LLVM 22.
config.environment["PATH"] = os.pathsep.join(
    [config.roofcheck_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for name in ["HOME", "TMPDIR", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

config.substitutions.append(("%bin", config.roofcheck_bin_dir))
config.substitutions.append(("%examples", os.path.join(config.roofcheck_src_root, "examples")))
config.substitutions.append(("%srcroot", config.roofcheck_src_root))
config.substitutions.append(("%objroot", config.roofcheck_obj_root))
config.substitutions.append(("%python", config.python_executable))
# lit itself, for the test of the wrapper that runs a suite (test/run-lit-suite.py).
config.substitutions.append(("%lit", os.path.abspath(sys.argv[0])))

def built(tool):
    return os.access(os.path.join(config.roofcheck_bin_dir, tool), os.X_OK)

# Features: which parts were built, and whether a GPU is usable here. GPU tests say
# `REQUIRES: cuda-gpu` and show up as UNSUPPORTED (never as passed) where there is none.
if config.with_clang and built("roofcheck-lint"):
    config.available_features.add("clang")
if config.with_cuda:
    config.available_features.add("cuda")
# The toolkit's nvcc (tests of what nvcc makes of a file: the source-convention referee's headers).
if config.nvcc and os.access(config.nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))

def gpu_usable():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU " in out.stdout

if config.with_cuda and gpu_usable():
    config.available_features.add("cuda-gpu")

# Schema validation needs Debian's python3-jsonschema (scripts/setup.sh installs it).
if subprocess.run(["/usr/bin/python3", "-c", "import jsonschema"], capture_output=True).returncode == 0:
    config.available_features.add("jsonschema")

# The SARIF 2.1.0 schema that scripts/setup.sh fetches into the build (test/tools/fetch-sarif-schema.py).
sarif_schema = os.path.join(config.roofcheck_obj_root, "third-party", "sarif-2.1.0-rtm.5.json")
config.substitutions.append(("%sarif_schema", sarif_schema))
if os.path.exists(sarif_schema):
    config.available_features.add("sarif-schema")

# The pre-commit framework (Debian's pre-commit package) and git, for the hook test.
if shutil.which("pre-commit") and shutil.which("git"):
    config.available_features.add("pre-commit")
