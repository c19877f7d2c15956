use super::*;

const LIMITS: Limits = Limits {
    memory_bytes: 512 << 20,
    cpu_quota_us: 100_000,
    pids: 256,
    cpu_secs: 10,
};

fn touch(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, "").unwrap();
}

#[test]
fn cgroup_v2_first_then_v1_then_rlimits_and_each_says_why() {
    // No cgroups at all: rlimits, saying why.
    let none = tempfile::tempdir().unwrap();
    let c = Confiner::at(none.path(), LIMITS, Err(other("not root")));
    assert_eq!(c.describe(), "rlimits");
    assert_eq!(c.missing.len(), 3, "{:?}", c.missing);
    assert!(c.cell().unwrap().dirs.is_empty());

    // A hybrid machine whose unified hierarchy has no controllers (this one): v1.
    let hybrid = tempfile::tempdir().unwrap();
    let root = hybrid.path();
    fs::create_dir_all(root.join("unified")).unwrap();
    fs::write(root.join("unified/cgroup.controllers"), "\n").unwrap();
    for c in ["memory", "cpu", "pids"] {
        touch(&root.join(c).join("cgroup.procs"));
    }
    // The kernel makes these in each new group; here they are there beforehand.
    touch(
        &root
            .join("memory")
            .join(GROUP)
            .join("memory.limit_in_bytes"),
    );
    touch(&root.join("cpu").join(GROUP).join("cpu.cfs_quota_us"));
    touch(&root.join("pids").join(GROUP).join("pids.max"));
    let c = Confiner::at(root, LIMITS, Ok(()));
    assert_eq!(c.describe(), "cgroup-v1+netns");
    assert!(
        c.missing[0].contains("no memory controller"),
        "{:?}",
        c.missing
    );
    assert!(root.join("memory").join(GROUP).is_dir());

    // The unified hierarchy with the three controllers: v2.
    let v2 = tempfile::tempdir().unwrap();
    fs::write(
        v2.path().join("cgroup.controllers"),
        "cpuset cpu io memory pids\n",
    )
    .unwrap();
    let c = Confiner::at(v2.path(), LIMITS, Ok(()));
    assert_eq!(c.describe(), "cgroup-v2+netns");
    assert_eq!(
        fs::read_to_string(v2.path().join(GROUP).join("cgroup.subtree_control")).unwrap(),
        "+memory +cpu +pids"
    );
}
