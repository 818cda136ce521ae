# SPDX-License-Identifier: GPL-2.0
#
# awk -f compare.awk CTXSCHED KERNEL: compare two pahole listings of the
# same structs and enums, ctxsched's (from the DWARF of compat/btf/layout.o)
# and the kernel's (from its BTF).  Prints one line per difference, naming
# the type and the member, and exits 1 if there is any; prints a summary
# and exits 0 if every type has the same size and the same members at the
# same offsets, with the same sizes and types.
#
# Variables: types (required), the space-separated list of the types both
# listings must contain, each as "struct:NAME" or "enum:NAME".
#
# Where compat/ declares a member differently on purpose:
#  - const and volatile qualifiers are not compared;
#  - compat's typedef cs_NAME_t stands for the kernel's NAME_t (compat
#    declares its own copy of types the public headers lack, such as
#    blk_insert_t);
#  - blk_mq_alloc_data.cached_rqs is "void *" in compat/: the kernel's
#    member is "struct request **cached_rq" before 6.12.y and
#    "struct rq_list *cached_rqs" since; ctxsched never touches it, so only
#    its place and size are compared.

function trim(s) {
	gsub(/[ \t]+/, " ", s)
	sub(/^ /, "", s)
	sub(/ $/, "", s)
	return s
}

# Parse one member line of a struct into name, type, offset and size;
# returns the name, or "" for a line that is not a member.
function member(line,    cmt, decl, tok, name, type, n, f) {
	if (!match(line, /\/\*[^*]*\*\/[ \t]*$/))
		return ""
	cmt = trim(substr(line, RSTART + 2, RLENGTH - 4))
	decl = trim(substr(line, 1, RSTART - 1))
	if (decl !~ /;$/)
		return ""
	sub(/ *;$/, "", decl)
	# pahole 1.30 shows the alignment it infers from DWARF as attributes
	gsub(/ *__attribute__\(\([^()]*(\([^()]*\))?[^()]*\)\)/, "", decl)
	if (match(decl, /\(\*[A-Za-z_][A-Za-z0-9_]*\)/)) {
		name = substr(decl, RSTART + 2, RLENGTH - 3)
		type = substr(decl, 1, RSTART - 1) "(*)" substr(decl, RSTART + RLENGTH)
	} else if (match(decl, /[A-Za-z_][A-Za-z0-9_]*(\[[0-9]*\])*(:[0-9]+)?$/)) {
		tok = substr(decl, RSTART)
		type = substr(decl, 1, RSTART - 1)
		name = tok
		sub(/\[.*/, "", name)
		sub(/:.*/, "", name)
		type = type substr(tok, length(name) + 1)
	} else {
		return ""
	}
	type = trim(type)
	# "   112: 0  4" is a bit field: byte 112, bit 0, 4 bytes of storage
	gsub(/: /, ":", cmt)
	n = split(cmt, f, " ")
	if (n < 2)
		return ""
	m_type = type
	m_off = f[1]
	m_size = f[2]
	return name
}

function record(side, line,    name, t) {
	if (cur == "")
		return
	if (line ~ /^[ \t]*\/\* size: [0-9]+/) {
		t = line
		sub(/^[ \t]*\/\* size: /, "", t)
		sub(/[^0-9].*/, "", t)
		size[side, cur] = t
		return
	}
	if (cur ~ /^enum:/) {
		if (match(line, /^[ \t]*[A-Za-z_][A-Za-z0-9_]* *= *-?[0-9]+/)) {
			t = trim(substr(line, RSTART, RLENGTH))
			name = t
			sub(/ *=.*/, "", name)
			sub(/.*= */, "", t)
			add(side, name, "enumerator", t, "")
		}
		return
	}
	name = member(line)
	if (name == "")
		return
	if (side == "c")
		m_type = cs_type(m_type)
	m_type = unqualified(m_type)
	add(side, name, m_type, m_off, m_size)
}

function add(side, name, type, off, sz) {
	if (!((side, cur, name) in mtype)) {
		nmem[side, cur]++
		mname[side, cur, nmem[side, cur]] = name
	}
	mtype[side, cur, name] = type
	moff[side, cur, name] = off
	msize[side, cur, name] = sz
}

# const and volatile do not change a layout or a calling convention (7.x
# made elevator_type.elevator_attrs point to const entries): drop them.
function unqualified(t,    out, tok) {
	out = ""
	while (match(t, /[A-Za-z0-9_]+/)) {
		tok = substr(t, RSTART, RLENGTH)
		if (tok == "const" || tok == "volatile")
			tok = ""
		out = out substr(t, 1, RSTART - 1) tok
		t = substr(t, RSTART + RLENGTH)
	}
	return trim(out t)
}

# compat's own typedef for a kernel type: cs_blk_insert_t is blk_insert_t.
function cs_type(t,    out, tok) {
	out = ""
	while (match(t, /[A-Za-z0-9_]+/)) {
		tok = substr(t, RSTART, RLENGTH)
		if (tok ~ /^cs_[A-Za-z0-9_]+_t$/)
			tok = substr(tok, 4)
		out = out substr(t, 1, RSTART - 1) tok
		t = substr(t, RSTART + RLENGTH)
	}
	return out t
}

function mismatch(msg) {
	print "ctxsched: " msg
	bad++
}

function where(side, name) {
	if (msize[side, cur, name] == "")
		return "= " moff[side, cur, name]
	return "at offset " moff[side, cur, name] " (" msize[side, cur, name] " bytes)"
}

function label(t) {
	sub(/:/, " ", t)
	return t
}

FNR == 1 { side = (NR == FNR) ? "c" : "k"; cur = "" }
/^(struct|union|enum) [A-Za-z_][A-Za-z0-9_]* \{/ {
	cur = $1 ":" $2
	seen[side, cur] = 1
	next
}
/^\}/ { cur = ""; next }
{ record(side, $0) }

END {
	ntypes = split(types, tl, " ")
	checked = 0
	for (i = 1; i <= ntypes; i++) {
		cur = tl[i]
		if (!(("c", cur) in seen)) {
			mismatch(label(cur) ": not in ctxsched's layout object")
			continue
		}
		if (!(("k", cur) in seen)) {
			mismatch(label(cur) ": not in the kernel's BTF")
			continue
		}
		if (size["c", cur] != size["k", cur])
			mismatch(label(cur) ": size " size["c", cur] " in ctxsched, " \
				 size["k", cur] " in the kernel")
		for (j = 1; j <= nmem["c", cur]; j++) {
			name = mname["c", cur, j]
			kname = name
			loose = 0
			if (cur == "struct:blk_mq_alloc_data" && name == "cached_rqs") {
				loose = 1
				if (!(("k", cur, kname) in mtype))
					kname = "cached_rq"
			}
			checked++
			if (!(("k", cur, kname) in mtype)) {
				mismatch(label(cur) "." name ": declared by ctxsched " \
					 where("c", name) ", not in the kernel")
				continue
			}
			kseen[cur, kname] = 1
			if (moff["c", cur, name] != moff["k", cur, kname] ||
			    msize["c", cur, name] != msize["k", cur, kname])
				mismatch(label(cur) "." name ": " where("c", name) \
					 " in ctxsched, " where("k", kname) " in the kernel")
			if (!loose && mtype["c", cur, name] != mtype["k", cur, kname])
				mismatch(label(cur) "." name ": type '" mtype["c", cur, name] \
					 "' in ctxsched, '" mtype["k", cur, kname] "' in the kernel")
		}
		for (j = 1; j <= nmem["k", cur]; j++) {
			name = mname["k", cur, j]
			if (!((cur, name) in kseen))
				mismatch(label(cur) "." name ": in the kernel " where("k", name) \
					 " ('" mtype["k", cur, name] "'), not declared by ctxsched")
		}
	}
	if (bad)
		exit 1
	print "ctxsched: " ntypes " types, " checked " members: same sizes, offsets and types"
}
