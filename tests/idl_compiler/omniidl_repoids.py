# An omniidl back end that prints "scoped::name repository-id" for every declaration, those of
# included files too. Used by repository_ids_vs_omniidl.sh:  omniidl -p<this dir> -bomniidl_repoids
from omniidl import idlast


def _walk(node, out):
    if hasattr(node, "repoId") and hasattr(node, "scopedName"):
        out.append("::" + "::".join(node.scopedName()) + " " + node.repoId())
    for attr in ("definitions", "contents", "members", "declarators", "cases"):
        if hasattr(node, attr):
            for child in getattr(node, attr)():
                _walk(child, out)
    # Types defined inline: typedef struct S {...} T; struct members; union cases and switch
    # (a Union's constrType() is its switch type's).
    for has, get in (("constrType", "aliasType"), ("constrType", "memberType"),
                     ("constrType", "caseType"), ("constrType", "switchType")):
        if hasattr(node, has) and hasattr(node, get) and getattr(node, has)():
            decl = getattr(node, get)().decl()
            if decl is not None:
                _walk(decl, out)


def run(tree, args):
    out = []
    for declaration in tree.declarations():
        _walk(declaration, out)
    seen = set()
    for line in out:
        if line not in seen:
            seen.add(line)
            print(line)
