#!/usr/bin/env python3
"""Writes the demux experiment's interface for K operations (latency paper, section 5.3.1): the
ttcp operations (ttcp_bench.idl) and K parameterless operations op_0..op_{K-1}, and the servant
and call table that go with it (their C++ would be K near-identical lines by hand). syidl then
compiles the IDL (benchmarks/sy_bench/meson.build): the gperf operation table, the active
indices and the _dispatch_<op> functions sy-bench demux measures.

Usage: write_demux_idl.py K IDL_OUT HEADER_OUT
  IDL_OUT     ttcp_demux_<K>.idl: interface ttcp_demux_<K> : ttcp_bench { void op_0(); ... }
  HEADER_OUT  ttcp_demux_<K>_bench.h: the servant ttcp_demux_<K>_servant (op_i counts the call,
              the ttcp operations come from ttcp_operations.h), and ttcp_demux_<K>_calls, the
              stub's op_i as member pointers indexed by i
Standard library only; run by meson at build time (benchmarks/sy_bench/meson.build).
"""
import os
import sys


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    k = int(sys.argv[1])
    if not 1 <= k <= 10000:
        print("write_demux_idl.py: K must be 1..10000", file=sys.stderr)
        return 2
    idl_out, header_out = sys.argv[2], sys.argv[3]
    name = f"ttcp_demux_{k}"
    operations = "\n".join(f"  void op_{i} ();" for i in range(k))
    idl = (f"// Written by write_demux_idl.py at build time: the demux experiment's interface with {k} operation(s).\n"
           f"#include \"ttcp_bench.idl\"\n\ninterface {name} : ttcp_bench\n{{\n{operations}\n}};\n")
    overrides = "\n".join(f"  void op_{i}() override {{ count(0); }}" for i in range(k))
    calls = ",\n".join(f"    &::{name}::op_{i}" for i in range(k))
    header = f"""// Written by write_demux_idl.py at build time from {os.path.basename(idl_out)}.
#pragma once

#include "{name}.h"
#include "benchmarks/sy_bench/ttcp_operations.h"

namespace switchyard::bench {{

// A servant of {name}: the ttcp operations as every ttcp servant has them, op_i counts the call.
class {name}_servant final : public ttcp_operations<::{name}_skeleton> {{
 public:
{overrides}
}};

// The stub's op_i by index: the demux experiment calls (stub.*{name}_calls[i])().
inline constexpr void (::{name}::*{name}_calls[{k}])() = {{
{calls}
}};

}}  // namespace switchyard::bench
"""
    for path, text in ((idl_out, idl), (header_out, header)):
        temporary = path + ".tmp"
        with open(temporary, "w") as f:
            f.write(text)
        os.replace(temporary, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
