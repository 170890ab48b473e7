//! A methuselah's final census: the analysis finds where it settles, the census names what it
//! left. Both presenters (the command line and the window) fill their findings here.

use crate::analysis::Findings;
use crate::analysis::analyse::ObjectCount;
use crate::engine::Universe;
use crate::rule::Rule;

/// A methuselah's objects at the end, on the plane (a torus's debris may wrap): apgsearch's
/// census of what it left, over a few of its debris's periods, each escaping spaceship named
/// on its own. Left out for a rule the census does not run.
pub fn fill(findings: &mut Findings, rule: Rule) {
    let (Some(settled), Some(Universe::Plane)) = (&findings.settled, findings.universe) else {
        return;
    };
    let period = findings.period.unwrap_or(1).max(1);
    let duration = period * 8u64.div_ceil(period);
    if let Ok(counts) =
        crate::census::objects_of_settled(rule, &settled.debris, &settled.ships, duration)
    {
        findings.final_census = Some(
            counts
                .into_iter()
                .map(|(apgcode, count)| ObjectCount {
                    name: crate::census::common_name(&rule, &apgcode).map(str::to_string),
                    apgcode,
                    count,
                })
                .collect(),
        );
    }
}
