"""Drives a polygpu kernel over the Jupyter protocol with jupyter_client and prints a JSON transcript.

Usage: python3 protocol_check.py KERNEL_NAME TRANSCRIPT.json
The kernelspec must be findable (JUPYTER_PATH). For each step the transcript holds the request, the reply's
content and the IOPub messages of that request up to its idle status; the Java test asserts on it.
"""
import json
import sys
import time

from jupyter_client.manager import KernelManager

TIMEOUT = 120


def collect(kc, msg_id):
    """The IOPub messages of request msg_id, up to its 'idle' status."""
    messages = []
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        messages.append({"msg_type": msg["msg_type"], "content": msg["content"]})
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return messages


def reply_to(kc, msg_id):
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]


def execute(kc, code):
    msg_id = kc.execute(code)
    reply = reply_to(kc, msg_id)
    return {"kind": "execute", "code": code, "reply": reply, "iopub": collect(kc, msg_id)}


def interrupted(km, kc, code, after):
    """Runs code, interrupts it after `after` seconds, and records what came back."""
    msg_id = kc.execute(code)
    time.sleep(after)
    started = time.monotonic()
    km.interrupt_kernel()
    reply = reply_to(kc, msg_id)
    return {"kind": "interrupt", "code": code, "reply": reply, "iopub": collect(kc, msg_id),
            "stopped_after_s": time.monotonic() - started}


def complete(kc, code):
    msg_id = kc.complete(code, len(code))
    reply = reply_to(kc, msg_id)
    collect(kc, msg_id)
    return {"kind": "complete", "code": code, "reply": reply}


def main():
    km = KernelManager(kernel_name=sys.argv[1])
    km.start_kernel()
    transcript = []
    try:
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=TIMEOUT)
        steps = [
            lambda: execute(kc, "import polyglot\ncu = polyglot.eval(language='grcuda', string='CU')\n"
                                "x = cu.DeviceArray('float', 8)\nfor i in range(8):\n    x[i] = i * 1.5\n"
                                "print('filled', len(x))\nx"),
            lambda: execute(kc, "%%js\nx[2] = 40; x[2] + x[3]"),
            lambda: execute(kc, "x[2]"),
            lambda: execute(kc, "1 / 0"),
            lambda: execute(kc, "6 * 7"),
            lambda: execute(kc, "%%js\nnull.boom"),
            lambda: execute(kc, "%%bogus\n1"),
            lambda: interrupted(km, kc, "while True:\n    pass", 2.0),
            lambda: execute(kc, "'usable after interrupt'"),
            lambda: interrupted(km, kc, "%%js\nwhile (true) {}", 2.0),
            lambda: execute(kc, "%%js\n'js usable after interrupt'"),
            lambda: execute(kc, "nap = cu.buildkernel('__global__ void nap(float *x, int ms) {"
                                " for (int k = 0; k < ms; k++) __nanosleep(1000000); x[0] = ms; }',"
                                " 'nap(x: inout pointer float, ms: sint32)')\n"
                                "y = cu.DeviceArray('float', 1)\nnap(1, 1)(y, 6000)"),
            lambda: interrupted(km, kc, "y[0]", 2.0),
            lambda: execute(kc, "x[3]"),
            lambda: execute(kc, "%%time\nimport sys\nprint('to stderr', file=sys.stderr)\nsum(range(1000))"),
            lambda: complete(kc, "cu.buil"),
            lambda: complete(kc, "%%js\nCU.cudaDevice"),
            lambda: execute(kc, "%%js\nvar p = polygpu.progress(3, 'steps');\nfor (let i = 0; i < 3; i++) p.step();"),
            lambda: execute(kc, "y[0]"),
        ]
        for step in steps:
            transcript.append(step())
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=False)
    with open(sys.argv[2], "w") as out:
        json.dump(transcript, out, indent=1)


if __name__ == "__main__":
    main()
