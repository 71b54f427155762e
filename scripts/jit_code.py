"""The JIT's machine code as printed by -XX:+PrintAssembly without a disassembler plugin (bytes
only), read back and disassembled with objdump. Shared by scripts/hotspots and
scripts/jit-instructions."""
import re
import subprocess

_CODE = re.compile(r'^\s+0x([0-9a-f]+): ([0-9a-f |]+?)\s*$')
_INSTRUCTION = re.compile(r'^\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$')


def read_methods(asm_path):
    """Compiled methods in print order: [{'name': 'pkg.Class::method', 'bytes': {address: bytes}}]."""
    methods, cur = [], None
    for line in open(asm_path, errors='replace'):
        if line.startswith('Compiled method'):
            cur = {'name': next((w for w in line.split() if '::' in w), '?'), 'bytes': {}}
            methods.append(cur)
        elif cur is not None and (m := _CODE.match(line)):
            try:
                cur['bytes'][int(m.group(1), 16)] = bytes.fromhex(m.group(2).replace('|', '').replace(' ', ''))
            except ValueError:
                pass   # a line the benchmark's own output interrupted
    return methods


def code_range(method):
    """(first address, end address) of a method's code, or None when nothing was printed."""
    if not method['bytes']:
        return None
    ks = sorted(method['bytes'])
    return ks[0], ks[-1] + len(method['bytes'][ks[-1]])


def disassemble(method, work_dir):
    """[(address, instruction text)] of a method's code (objdump, Intel syntax)."""
    lo, hi = code_range(method)
    buf = bytearray(hi - lo)
    for a, b in method['bytes'].items():
        buf[a - lo:a - lo + len(b)] = b
    path = work_dir + '/m.bin'
    open(path, 'wb').write(buf)
    out = subprocess.run(['objdump', '-D', '-b', 'binary', '-m', 'i386:x86-64', '-M', 'intel',
                          '--adjust-vma=%#x' % lo, path], capture_output=True, text=True).stdout
    return [(int(m.group(1), 16), m.group(2).strip()) for line in out.splitlines()
            if (m := _INSTRUCTION.match(line))]
