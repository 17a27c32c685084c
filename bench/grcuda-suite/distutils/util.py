# distutils left the standard library in Python 3.12; GrCUDA's harness imports only strtobool from it.
def strtobool(val):
    """1 for a yes-like word, 0 for a no-like word (as distutils.util.strtobool did); ValueError otherwise."""
    v = val.lower()
    if v in ("y", "yes", "t", "true", "on", "1"):
        return 1
    if v in ("n", "no", "f", "false", "off", "0"):
        return 0
    raise ValueError("invalid truth value %r" % (val,))
