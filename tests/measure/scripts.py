"""The kit's scripts without a .py suffix (tools/measure/emulate, launch) loaded as modules, for the tests of their
pure functions."""

import importlib.machinery
import importlib.util
import os

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools", "measure")


def load_script(name):
    """tools/measure/NAME as a module (run top to bottom, its main() not called)."""
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(TOOLS, name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module
