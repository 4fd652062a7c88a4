"""The kit's scripts without a .py suffix (tools/measure/emulate, launch) loaded as modules, for the tests of their
pure functions; and executable stand-ins for sgdsim, for the tests of the tools that run it."""

import importlib.machinery
import importlib.util
import os
import stat

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools", "measure")


def load_script(name):
    """tools/measure/NAME as a module (run top to bottom, its main() not called)."""
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(TOOLS, name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module


def write_executable(path, python_body):
    """A Python script at PATH, executable by its owner: a stand-in for a program a tool runs."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("#!/usr/bin/env python3\n" + python_body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
