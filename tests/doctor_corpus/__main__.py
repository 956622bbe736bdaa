"""python -m tests.doctor_corpus [name ...]: the doctor on the corpus, per cause and per depth (-v: each program)."""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from . import programs, run, table, verdict  # noqa: E402


def main(arguments):
    verbose = "-v" in arguments
    names = [argument for argument in arguments if not argument.startswith("-")]
    chosen = [program for program in programs() if not names or program.name in names]
    results = []
    for program in chosen:
        for result in run(program):
            results.append(result)
            cause_right, line_right, false_alarm, connected = verdict(result)
            if verbose or (names and True):
                mark = "ok " if cause_right else "BAD"
                print(f"{mark} {result.doctor:15} {program.folder}/{program.name} expected {sorted(program.causes)} "
                      f"lines {sorted(program.lines)} said {result.causes} lines {sorted(result.lines)}"
                      + (f" CRASH {result.crashed}" if result.crashed else ""))
                if names:
                    print("   " + result.text.replace("\n", "\n   "))
    rows = table(results)
    print(f"\n{'':40} {'n':>4} {'cause':>6} {'line':>9} {'none':>5} {'alarm':>5} {'conn':>5} {'crash':>5}")
    for (doctor, key), row in sorted(rows.items()):
        line = f"{row['line right']}/{row['lines asked']}"
        print(f"{doctor + ' ' + key:40} {row['programs']:>4} {row['cause right']:>6} {line:>9} "
              f"{row['found nothing']:>5} {row['false alarm']:>5} {row['connected on broken']:>5} {row['crashed']:>5}")


if __name__ == "__main__":
    main(sys.argv[1:])
