#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the KUnit cases catch what they cover.

Each mutant puts one defect back into a scratch copy of the scheduling
core (a defect of the review of c397ee4, issue 11, or the device model's
reason to exist), builds the KUnit cases on the host (tools/sim/kunit-host)
and requires the case that covers it to fail.  The unmutated tree must
pass.  A mutant whose text is no longer in the source fails the check, so
the mutants follow the code.

    tests/host/kunit-mutants.py [-v]
"""
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, file, old text, new text, case that must fail)
MUTANTS = [
    ("2: no queue run when a completion ends the slice", "sched/core.c",
     "\tcore->stalled = false;\n\tcore->stats.kicks++;\n\treturn true;\n}",
     "\tcore->stalled = false;\n\treturn false;\n}",
     "cs_fix2_kick_at_slice_end"),
    ("3: requeues carry a deadline from their re-insert", "sched/core.c",
     "\t\tcs_rq_set_state(rq, CS_RQ_HEAD |",
     "\t\trq->fifo_time = now;\n\t\tcs_rq_set_state(rq, CS_RQ_HEAD | CS_RQ_TIMED |",
     "cs_fix3_requeue_not_late"),
    ("4: a stale timer callback ends the new window", "sched/core.c",
     "if (kind == CS_IDLE_NONE || now < core->idle_until)",
     "if (kind == CS_IDLE_NONE)",
     "cs_fix4_stale_timer"),
    ("5: grouping read from the tunable, not with its generation",
     "sched/members.c",
     "enum cs_group_by by = core->group_by;",
     "enum cs_group_by by = cs_tun(core, CS_T_GROUP_BY);",
     "cs_fix5_group_by_gen"),
    ("6: insert merges for sync writes", "sched/core.c",
     "return !(rq_is_sync(rq) && op_is_write(req_op(rq)));",
     "return true;",
     "cs_fix6_insert_merge"),
    ("7: a request inserted twice is dropped", "sched/core.c",
     "\t\tcs_unqueue(core, rq);\n\t\tcore->stats.repaired++;\n\t}\n\tif (cs_env_warn_on(core, state & CS_RQ_DRIVER)) {",
     "\t\treturn;\n\t}\n\tif (cs_env_warn_on(core, state & CS_RQ_DRIVER)) {",
     "cs_fix7_repairs"),
    ("7: broken queue counts are left as they are", "sched/core.c",
     "\t\tcs_repair_queue(core, cq);\n\t}",
     "\t\treturn NULL;\n\t}",
     "cs_fix7_repairs"),
    ("8: the idle window ignores the time already waited", "sched/core.c",
     "\t\tif (waited >= wait)\n\t\t\treturn false;\n\t\twait -= waited;",
     "\t\t(void)waited;",
     "cs_fix8_idle_charged"),
    ("9: every priority change sends a queue to the back", "sched/core.c",
     "\tif (!idle && !cs_prio_higher(pclass, level, cq->prio_class, cq->level))\n\t\treturn;\n",
     "\t(void)idle;\n\tcq->prio_class = pclass;\n\tif (cq->flags & CSQ_ON_RR)\n\t\tcs_rr_add(core, cq, false);\n",
     "cs_fix9_alternating_prio"),
    ("10: a first request near a stream merges", "sched/coop.c",
     "\tif (in->new_history < CS_COOP_HISTORY)\n\t\treturn false;\n",
     "",
     "cs_fix10_coop_guards"),
    ("10: levels merge", "sched/coop.c",
     "\tif (in->active_class != in->new_class ||\n\t    in->active_level != in->new_level)",
     "\tif (in->active_class != in->new_class)",
     "cs_fix10_coop_guards"),
    ("10: a member's new priority re-classes the merged queue",
     "sched/members.c",
     "\t} else if (cq && (cq->flags & CSQ_MERGED) && cq->nr_members > 1 &&",
     "\t} else if (false && cq && (cq->flags & CSQ_MERGED) &&",
     "cs_fix10_coop_guards"),
    ("model: idling by queue/rotational, not by the device model",
     "sched/core.c",
     "in.idle_pays = core->mode == CS_MODE_SERIAL;",
     "in.idle_pays = true;",
     "cs_test_loop_serial_noseek"),
    ("model: no A/B measurement, an array stays SERIAL", "sched/model.c",
     "\treturn m->rotational || (m->l.seek_known && m->l.seek_cost);",
     "\treturn false;",
     "cs_test_loop_array"),
    ("model: a noisy measurement overturns 'no seek cost'", "sched/model.c",
     "m->ab_strong = m->l.seek_known && !m->l.seek_cost;",
     "m->ab_strong = false;",
     "cs_test_model_ab_noseek_noise"),
    ("model: the seek figure decides alone on a rotating disk",
     "sched/model.c",
     "\treturn m->rotational || (m->l.seek_known && m->l.seek_cost);",
     "\treturn m->l.seek_known && m->l.seek_cost;",
     "cs_test_model_ab_cache_hid_seeks"),
    ("model: a remembered disk waits a hold before its first measurement",
     "sched/model.c",
     "\t\t\tif (m->l.v[i].why != CS_WHY_PRIOR)\n\t\t\t\tm->hold_until[i] = m->l.v[i].hold;",
     "\t\t\tm->hold_until[i] = m->l.v[i].hold;",
     "cs_test_model_memory"),
    ("model: without near samples, far ones cannot show a cheap seek",
     "sched/model.c",
     "\t\tif (l->far_n < CS_MODEL_FAR_ALONE_MIN || l->far_excess > limit)",
     "\t\tif (true)",
     "cs_test_loop_serial_noseek"),
    ("model: a disk without seek cost goes SERIAL on a median alone",
     "sched/model.c",
     "(med < lo && (!m->ab_strong || ahead == n)))) {",
     "(med < lo && (!m->ab_strong || ahead <= n)))) {",
     "cs_test_model_ab_noseek_swings"),
    ("model: one preempted vCPU reads as a seek", "sched/model.c",
     "\tsample = min(sample, 2 * mean + CS_MODEL_SEEK_ON_NS);",
     "\t(void)0;",
     "cs_test_model_seek_outliers"),
    ("model: a run needs three quarters of a window contended",
     "sched/model.h",
     "#define CS_AB_CONTENDED_MIN\t512\t/* /1024 */",
     "#define CS_AB_CONTENDED_MIN\t768\t/* /1024 */",
     "cs_test_model_ab_partly_contended"),
    ("model: a window without competition is judged", "sched/model.h",
     "#define CS_AB_CONTENDED_MIN\t512\t/* /1024 */",
     "#define CS_AB_CONTENDED_MIN\t0\t/* /1024 */",
     "cs_test_model_ab_competition_gone"),
    ("model: one verdict for every contention level", "sched/model.c",
     "\tlevel = cs_model_level(m->present_avg, m->level);",
     "\tlevel = 0;",
     "cs_test_model_levels"),
    ("13: a disk that says it does not rotate is measured", "sched/core.c",
     "\treturn core->model.rotational;",
     "\treturn true;",
     "cs_test_core_nonrot_unmeasured"),
    ("model: no winner again measures as often", "sched/model.c",
     "\t\t\tl->hold = min_t(u64, 2 * l->hold, CS_AB_HOLD_MAX_NS);\n\t\telse",
     "\t\t\tl->hold = CS_AB_HOLD_MIN_NS;\n\t\telse",
     "cs_test_model_ab_noseek_noise"),
    ("model: the integrated count is not reset at a fold", "sched/model.c",
     "\tm->present_sum = 0;\n\tm->present_span = 0;",
     "\tm->present_span = 0;",
     "cs_test_model_level_steady"),
    ("model: a run's windows move its level", "sched/model.c",
     "\t\tif (now - m->level_away < CS_MODEL_LEVEL_AWAY_NS)\n\t\t\tlevel = m->level;",
     "\t\tif (now - m->level_away < CS_MODEL_LEVEL_AWAY_NS)\n\t\t\t(void)level;",
     "cs_test_model_level_steady"),
    ("model: no idling to keep shares on a serial disk", "sched/core.c",
     "\t\tin.keep_share = other && !cs_model_parallel(&core->model);",
     "\t\tin.keep_share = !other && !cs_model_parallel(&core->model);",
     "cs_test_loop_prio_keep_share"),
    ("15: metadata reads wait like others", "sched/policy.c",
     "\treturn in->new_sync && in->new_meta && !in->active_meta;",
     "\treturn false;",
     "cs_test_preempt_meta"),
    ("15: metadata is not served first", "sched/core.c",
     "\tif (cq->meta_queued) {",
     "\tif (false) {",
     "cs_test_core_meta_first"),
    ("15: write-back keeps its depth beside a thinking reader",
     "sched/policy.c",
     "\tif (sync_near)\n\t\tdepth = min_t(u64, depth, 1);",
     "\t(void)sync_near;",
     "cs_test_core_async_near"),
    ("parallel: a backlogged queue keeps the disk", "sched/core.c",
     "\telse if (cs_parallel_mode(core))\n\t\tbudget =",
     "\telse if (false)\n\t\tbudget =",
     "cs_test_core_parallel_turns"),
    ("S10: a random reader beside a stream gets no idling of its own",
     "sched/policy.c",
     "\tif (in->seeky && in->last_seeky_in_class &&",
     "\tif (false && in->seeky && in->last_seeky_in_class &&",
     "cs_test_core_seeky_share"),
    ("S10: seeky queues are not served together in their window",
     "sched/core.c",
     "\tif (cs_seeky_room(core, now))\n\t\treturn cs_seeky_waiting(core, pclass);",
     "\tif (cs_seeky_room(core, now))\n\t\treturn NULL;",
     "cs_test_core_seeky_bound"),
    ("S10: the seeky window's requests may outlast it", "sched/core.c",
     "\treturn !core->seeky_capped || !n ||",
     "\treturn true || !core->seeky_capped || !n ||",
     "cs_test_core_seeky_bound"),
    ("a slice starts at its first dispatch, behind a drain", "sched/core.c",
     "\t\t\tcq->flags |= CSQ_SLICE_WAIT;",
     "\t\t\tcs_start_slice(core, cq, now);",
     "cs_test_core_slice_after_drain"),
    ("15: a reader preempts write-back ahead of waiting readers",
     "sched/core.c",
     "\tin.sync_waits = cs_queue_sync(cq) &&",
     "\tin.sync_waits = false && cs_queue_sync(cq) &&",
     "cs_test_core_preempt_no_jump"),
    ("15: write-back is no competitor for the device model", "sched/core.c",
     "\treturn core->nr_present_sync + !!async;",
     "\treturn core->nr_present_sync + 0 * !!async;",
     "cs_test_core_writeback_competes"),
    ("12: write-back's bytes decide the A/B", "sched/model.c",
     "\tif ((flags & CS_MODEL_SYNC) && m->ab == CS_AB_RUN && now >= m->ab_start)",
     "\tif (m->ab == CS_AB_RUN && now >= m->ab_start)",
     "cs_test_model_ab_writeback"),
    ("S10: a seeky queue with nothing queued gives up a full window",
     "sched/core.c",
     "\treturn cq->queued && cs_seeky_window(core, cq->prio_class, now) &&",
     "\treturn cs_seeky_window(core, cq->prio_class, now) &&",
     "cs_test_core_seeky_room"),
    ("15: a reader back from its slice cuts write-back's turn at once",
     "sched/core.c",
     "\tin.new_returns = (cq->flags & CSQ_SLICE_USED) &&",
     "\tin.new_returns = false &&",
     "cs_test_core_async_turn"),
    ("12: an undecided level falls back to the prior, not the mode it ran in",
     "sched/model.c",
     "\t\tl->mode = m->ab_base;\n\t\tl->why = CS_WHY_AB_UNDECIDED;",
     "\t\tl->why = CS_WHY_AB_UNDECIDED;",
     "cs_test_model_undecided_keeps"),
    ("12: an old verdict holds for new competitors", "sched/model.c",
     "\t\t\tif (m->newcomer && contended &&",
     "\t\t\tif (false && m->newcomer && contended &&",
     "cs_test_model_newcomer"),
    ("12: newcomers on a seek-free disk of one tag are measured again",
     "sched/model.c",
     "\t\tif (!cs_model_seek_watched(m) && !cs_model_settled_wide(m)) {",
     "\t\tif (1) {",
     "cs_test_model_newcomer_one_tag"),
    ("12: newcomers on a side-by-side disk have a wide verdict measured again",
     "sched/model.c",
     "\t\tif (!cs_model_seek_watched(m) && !cs_model_settled_wide(m)) {",
     "\t\tif (!cs_model_seek_watched(m)) {",
     "cs_test_model_newcomer_side_by_side"),
    ("12: any PARALLEL verdict holds for newcomers on a side-by-side disk",
     "sched/model.c",
     "\t\t\treturn v->mode == CS_MODE_PARALLEL &&\n\t\t\t       v->ab_ratio >= CS_AB_WIDE;",
     "\t\t\treturn v->mode == CS_MODE_PARALLEL;",
     "cs_test_model_newcomer_side_by_side"),
    ("12: side by side whatever the gain figure", "sched/model.c",
     "\treturn !m->one_tag && m->l.gain_known && m->l.parallel;",
     "\treturn !m->one_tag;",
     "cs_test_model_newcomer_side_by_side"),
    ("12: newcomers on a one-read-at-a-time disk have a wide SERIAL verdict measured again",
     "sched/model.c",
     "\t       v->mode == CS_MODE_SERIAL &&\n",
     "\t       v->mode == CS_MODE_SERIAL && 0 &&\n",
     "cs_test_model_newcomer_serial_wide"),
    ("12: any SERIAL verdict holds for newcomers on a one-read-at-a-time disk",
     "sched/model.c",
     "\t       (u64)v->ab_ratio * CS_AB_WIDE <= 1024 * 1024;",
     "\t       1;",
     "cs_test_model_newcomer_serial_wide"),
    ("12: a SERIAL verdict holds for newcomers where the gain is not known",
     "sched/model.c",
     "\treturn m->l.gain_known && !m->l.parallel && v->why == CS_WHY_AB &&",
     "\treturn !m->l.parallel && v->why == CS_WHY_AB &&",
     "cs_test_model_newcomer_serial_wide"),
    ("12: writes count in the gain figure", "sched/model.c",
     "\tif (!write)\n\t\tm->busy_bytes += bytes;",
     "\tm->busy_bytes += bytes;",
     "cs_test_model_gain_writes"),
    ("12: a newcomer on a seek-free disk of one tag is forgotten",
     "sched/model.c",
     "\t\t\tm->newcomer = false;\n\t\t}\n",
     "\t\t}\n\t\tm->newcomer = false;\n",
     "cs_test_model_newcomer_one_tag"),
    ("12: newcomers on every disk of one tag hold the old verdict",
     "sched/model.c",
     "\treturn m->one_tag && m->l.seek_known && !m->l.seek_cost;",
     "\treturn m->one_tag;",
     "cs_test_model_newcomer_one_tag"),
    ("12: a fresh verdict is measured again for every newcomer",
     "sched/model.c",
     "\t\t\t     cs_since(now, m->measured_at[m->level]) >=\n\t\t\t     CS_AB_FRESH_NS))",
     "\t\t\t     true))",
     "cs_test_model_newcomer"),
    ("14: boosted queues lead over each other (a pool's new threads)",
     "sched/core.c",
     "\treturn core->in_driver[0] ||\n\t       cs_busy_queues(core) > cs_busy_acting(core);",
     "\treturn true;",
     "cs_test_core_boost_pool"),
    ("14: write-back in the driver is nobody for boosts to lead",
     "sched/core.c",
     "\treturn core->in_driver[0] ||\n\t       cs_busy_queues(core) > cs_busy_acting(core);",
     "\treturn cs_busy_queues(core) > cs_busy_acting(core);",
     "cs_test_core_boost_pool"),
    ("15: no boost: a program starting waits a round per read", "sched/core.c",
     "\t\tcq->flags |= CSQ_BOOST;\n",
     "",
     "cs_test_core_boost_startup"),
    ("15: boosted queues are not idled for", "sched/policy.c",
     "\tif (window && quick && in->boosted)\n\t\treturn CS_IDLE_QUEUE;\n",
     "",
     "cs_test_idle_boosted"),
    ("15: boosts lead without bound", "sched/policy.c",
     "\treturn lead < (leading ? CS_BOOST_LEAD : CS_BOOST_LEAD / 4);",
     "\treturn true;",
     "cs_test_core_boost_bound"),
    ("15: a boost ends when the program reads its binary", "sched/core.c",
     "\t    !cs_boost_ends(cq->boost_served, cs_tun(core, CS_T_BOOST),\n"
     "\t\t\t   cq->boost_until, now))\n",
     "\t    (!cs_queue_stream(cq) &&\n"
     "\t     !cs_boost_ends(cq->boost_served, cs_tun(core, CS_T_BOOST),\n"
     "\t\t\t    cq->boost_until, now)))\n",
     "cs_test_core_boost_exec"),
    ("15: boosted queues do not preempt", "sched/policy.c",
     "\tif (in->new_sync && in->new_boosted && !in->active_boosted)\n\t\treturn true;\n",
     "",
     "cs_test_preempt_boost"),
    ("15: the lead forgets the others' time", "sched/policy.c",
     "\t\treturn lead - min(lead, dt * 2 / 3);",
     "\t\treturn lead;",
     "cs_test_boost_lead"),
    ("15: boosts lead again as soon as the lead is under the bound",
     "sched/policy.c",
     "(leading ? CS_BOOST_LEAD : CS_BOOST_LEAD / 4);",
     "CS_BOOST_LEAD;",
     "cs_test_boost_lead"),
    ("15: far seeks read only from the mean (a drive's cache hides them)",
     "sched/model.c",
     "\treturn m->l.far_n >= 1U << CS_MODEL_SLOW_SHIFT &&",
     "\treturn false &&",
     "cs_test_model_far_seeks_cached"),
    ("15: far seeks: host noise on near requests not taken off",
     "sched/model.c",
     "\t       m->l.far_slow >= m->l.near_slow + CS_MODEL_FAR_SLOW_MIN;",
     "\t       m->l.far_slow >= CS_MODEL_FAR_SLOW_MIN;",
     "cs_test_model_far_seeks_cached"),
    ("15: far seeks judged without near samples", "sched/model.c",
     "\t       m->l.near_n >= 1U << CS_MODEL_SLOW_SHIFT &&\n", "",
     "cs_test_model_far_seeks_cached"),
    ("15: a measurement starts while boosted queues lead", "sched/model.c",
     "\t\tif (contended && !m->defer &&",
     "\t\tif (contended &&",
     "cs_test_model_defer"),
    ("15: a measurement running is dropped when boosted queues lead",
     "sched/model.c",
     "\tm->defer = defer;\n}",
     "\tif (defer && m->ab == CS_AB_RUN)\n\t\tcs_model_ab_hold(m, 0, false, now);\n"
     "\tm->defer = defer;\n}",
     "cs_test_model_defer"),
    ("15: write-back beside reads while the model learns", "sched/core.c",
     "\treturn why != CS_WHY_PRIOR && why != CS_WHY_AB_UNDECIDED;",
     "\treturn why != CS_WHY_AB_UNDECIDED;",
     "cs_test_core_prior_writes_wait"),
    ("15: write-back beside reads in a measurement's PARALLEL window",
     "sched/core.c",
     "\tif (cs_model_measuring(m))\n\t\treturn false;\n\twhy = cs_model_why(m);",
     "\twhy = cs_model_why(m);",
     "cs_test_core_prior_writes_wait"),
    ("15: write-back beside reads where a measurement found no winner",
     "sched/core.c",
     "\treturn why != CS_WHY_PRIOR && why != CS_WHY_AB_UNDECIDED;",
     "\treturn why != CS_WHY_PRIOR;",
     "cs_test_core_prior_writes_wait"),
    ("15: a boosted queue cuts the depth of higher classes", "sched/core.c",
     "\tfor (c = CS_CLASS_RT; c <= pclass; c++)\n\t\tif (core->boost_seen[c] &&",
     "\tfor (c = CS_CLASS_RT; c < CS_NR_CLASSES; c++)\n\t\tif (core->boost_seen[c] &&",
     "cs_test_core_boost_class"),
    ("15: a boosted queue leaves the others their depth", "sched/core.c",
     "\tif (core->boost_last && !cs_queue_acts(cq) &&\n"
     "\t    cs_boost_near(core, cq->prio_class, now))",
     "\tif (core->boost_last && !cs_queue_acts(cq) &&\n"
     "\t    cs_boost_near(core, cq->prio_class, now) && !core)",
     "cs_test_core_boost_class"),
    ("15: a turn ends in favour of a lower class", "sched/core.c",
     "\tif (cs_busy_up_to(core, cq->prio_class) <= (cq->queued ? 1 : 0))",
     "\tif (cs_busy_up_to(core, CS_CLASS_IDLE) <= (cq->queued ? 1 : 0))",
     "cs_test_core_rt_keeps_turns"),
    ("13: sync queues of a class skip the preemption test for metadata",
     "sched/core.c",
     "\tif (!meta && !cs_queue_boosted(cq) &&\n",
     "\tif (!cs_queue_boosted(cq) &&\n",
     "cs_test_core_meta_first"),
    ("13: sync queues of a class skip the preemption test for a boost",
     "sched/core.c",
     "\tif (!meta && !cs_queue_boosted(cq) &&\n",
     "\tif (!meta &&\n",
     "cs_test_core_boost_preempts"),
    ("13: sync queues of a class preempt where the core does not ask",
     "sched/policy.c",
     "\treturn in->new_sync && in->new_meta && !in->active_meta;",
     "\treturn in->new_sync && !in->active_meta;",
     "cs_test_preempt_sync_peers"),
]


def build_and_run(tree, cases, verbose, extra=""):
    out = os.path.join(tree, "build", "sim")
    r = subprocess.run(["make", "-s", "-C", os.path.join(tree, "tools", "sim"),
                        "O=" + out, "EXTRA_CFLAGS=" + extra, out + "/kunit-host"],
                       capture_output=True, text=True)
    if r.returncode:
        return None, r.stdout + r.stderr
    r = subprocess.run([out + "/kunit-host"] + cases, capture_output=True,
                       text=True, timeout=600)
    if verbose:
        print(r.stdout)
    return r.returncode, r.stdout


def copy_tree(dst):
    for d in ("sched", "kunit", "ra", "compat", "tools/sim", "tools/hddsim"):
        shutil.copytree(os.path.join(TOP, d), os.path.join(dst, d),
                        ignore=shutil.ignore_patterns("*.o", "*.ko", ".*.cmd"))


def main():
    verbose = "-v" in sys.argv
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base")
        copy_tree(base)
        rc, out = build_and_run(base, [], verbose)
        if rc != 0:
            print("not ok - unmutated tree: KUnit cases fail\n" + out[-3000:])
            return 1
        print("ok - unmutated tree: all KUnit cases pass")
        for i, (name, path, old, new, case) in enumerate(MUTANTS):
            tree = os.path.join(tmp, "m%d" % i)
            copy_tree(tree)
            f = os.path.join(tree, path)
            src = open(f).read()
            if src.count(old) != 1:
                print("not ok - mutant %s: text not found once in %s" % (name, path))
                bad += 1
                continue
            open(f, "w").write(src.replace(old, new))
            # A mutant may leave a helper unused: not an error there.
            rc, out = build_and_run(tree, [case], verbose,
                                    "-Wno-error=unused-function")
            if rc is None:
                print("not ok - mutant %s: does not build\n%s" % (name, out[-2000:]))
                bad += 1
            elif rc == 0:
                print("not ok - mutant %s: %s still passes" % (name, case))
                bad += 1
            else:
                print("ok - mutant %s: %s fails" % (name, case))
            shutil.rmtree(tree)
    print("%d mutants, %d not caught" % (len(MUTANTS), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
