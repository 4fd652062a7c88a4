"""tools/measure/loop_yield.c, the library `launch --loop-yield` preloads into the ranks: built as launch builds
it, a failed try-lock still fails (EBUSY) and is counted as yielded, a free mutex is still taken, and without the
library nothing is counted (it is what changes the behaviour). Needs a C compiler; no root."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
from scripts import load_script  # noqa: E402

CHECKER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
int main(void) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&m);
    int held = pthread_mutex_trylock(&m);   /* EBUSY: a default mutex already locked */
    pthread_mutex_unlock(&m);
    int free_ = pthread_mutex_trylock(&m);  /* 0: taken */
    unsigned long *count = (unsigned long *)dlsym(RTLD_DEFAULT, "sgdsim_loop_yield_count");
    printf("%s %d %ld\n", held == EBUSY ? "EBUSY" : "other", free_, count ? (long)*count : -1L);
    return 0;
}
"""


@unittest.skipUnless(shutil.which("cc"), "no C compiler")
class LoopYield(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.lib, error = load_script("launch").build_loop_yield(self.tmp.name)
        self.assertEqual(error, "")
        src = os.path.join(self.tmp.name, "checker.c")
        with open(src, "w") as f:
            f.write(CHECKER)
        self.checker = os.path.join(self.tmp.name, "checker")
        subprocess.run(["cc", "-O1", "-o", self.checker, src, "-ldl", "-lpthread"], check=True)

    def run_checker(self, preload):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        if preload:
            env["LD_PRELOAD"] = preload
        return subprocess.run([self.checker], env=env, capture_output=True, text=True, check=True).stdout.split()

    def test_a_failed_try_lock_still_fails_and_yields_once(self):
        self.assertEqual(self.run_checker(self.lib), ["EBUSY", "0", "1"])

    def test_without_the_library_nothing_yields(self):
        self.assertEqual(self.run_checker(""), ["EBUSY", "0", "-1"])

    def test_a_compiler_error_is_one_line(self):
        launch = load_script("launch")
        old = launch.HERE
        launch.HERE = self.tmp.name  # no loop_yield.c there
        try:
            path, error = launch.build_loop_yield(self.tmp.name)
        finally:
            launch.HERE = old
        self.assertEqual(path, "")
        self.assertIn("cc failed on loop_yield.c", error)
        self.assertNotIn("\n", error)


if __name__ == "__main__":
    unittest.main()
