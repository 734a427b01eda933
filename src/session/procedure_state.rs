//! The campaign as the post-battle procedure sees it, read through the
//! store's [`Ground`]: the whole of it, or only what the procedure of one
//! report needs. The same for a record made here and for one every laptop
//! of a league works out again inside the transaction it takes the
//! league's batches in with.

use std::collections::BTreeMap;

use anyhow::Result;

use crate::campaign::battle::{BattleReport, CampaignState};
use crate::campaign::{Gang, GangId};
use crate::rules::{Pack, Registry};
use crate::store::Ground;
use crate::text;

use super::root_of;

/// The whole campaign as the post-battle procedure sees it.
pub(super) fn whole(ground: Ground<'_>, registry: &Registry) -> Result<CampaignState> {
    let gangs = ground.gangs()?;
    let (fighters, titles) = (ground.all_fighters()?, ground.title_holders()?);
    let (pending, lasting) = (ground.pending_effects()?, ground.all_lasting_effects()?);
    let season = ground.season(true)?;
    let records_since = ground.records_since_healing_effects()?;
    with_the_rest(
        ground,
        registry,
        gangs,
        fighters,
        titles,
        pending,
        lasting,
        season,
        records_since,
    )
}

/// The campaign as the procedure of one report (played with `pack`)
/// needs it, read in a few indexed queries whatever the campaign holds:
/// the gangs the report names, with their fighters, lasting and pending
/// effects; the gangs holding their fighters; and, for the titles, their
/// holders and the gangs that lead each title's resource.
pub(super) fn state_for(
    ground: Ground<'_>,
    registry: &Registry,
    pack: Option<&Pack>,
    report: &BattleReport,
) -> Result<CampaignState> {
    let mut gangs = BTreeMap::new();
    for name in report.gang_names() {
        if let Some(gang) = gang_called(ground, name)? {
            gangs.insert(gang.id, gang);
        }
    }
    let named: Vec<GangId> = report
        .gangs
        .iter()
        .filter_map(|r| gangs.values().find(|g| text::same(&g.name, &r.gang)))
        .map(|g| g.id)
        .collect();
    let season = ground.season(pack.is_some_and(needs_results))?;
    let mut fighters = Vec::new();
    let mut lasting = Vec::new();
    for g in &named {
        fighters.extend(ground.fighters(*g)?);
        lasting.extend(ground.lasting_effects_of_gang(*g)?);
    }
    let titles = ground.title_holders()?;
    let mut others: Vec<GangId> = fighters
        .iter()
        .filter_map(|f| f.status.gang())
        .chain(titles.values().copied())
        .collect();
    if let Some(pack) = pack {
        if concerns_every_gang(pack) {
            others.extend(gangs_of_game(ground, registry, pack)?.iter().map(|g| g.id));
        } else {
            others.extend(title_contenders(ground, registry, pack, named.len())?);
        }
    }
    // The holders of the holdings: the stake's and those the gangs lose.
    others.extend(season.holders.values().copied());
    others.retain(|id| !gangs.contains_key(id));
    others.sort();
    others.dedup();
    // A title of a count of fighters compares every contender's; a cycle's
    // end reaches every gang's members.
    let every_member =
        pack.is_some_and(|p| crate::campaign::titles::counts_fighters(p) || p.cycles.is_some());
    if every_member {
        for g in &others {
            fighters.extend(ground.fighters(*g)?);
            if pack.is_some_and(|p| p.cycles.is_some()) {
                lasting.extend(ground.lasting_effects_of_gang(*g)?);
            }
        }
    }
    for gang in ground.gangs_by_ids(&others)? {
        gangs.insert(gang.id, gang);
    }
    let mut gangs: Vec<_> = gangs.into_values().collect();
    // In the order the store lists every gang: by name, any case.
    gangs.sort_by_cached_key(|g| (g.name.to_lowercase(), g.id));
    // What the record's own gangs were promised, and how long their
    // fighters' healing effects have run: read for them alone.
    let pending = ground.pending_effects_of(&named)?;
    let records_since = ground.records_since_healing_effects_of(&named)?;
    with_the_rest(
        ground,
        registry,
        gangs,
        fighters,
        titles,
        pending,
        lasting,
        season,
        records_since,
    )
}

/// Whether a record of the pack reads how every record finished: a
/// title counts the first in the standings.
fn needs_results(pack: &Pack) -> bool {
    pack.standings.is_some()
        && pack
            .titles
            .iter()
            .any(|t| t.count.as_deref() == Some("standings"))
}

/// The campaign's state of the gangs, fighters, titles and effects read,
/// and of how long healing effects have run, with what every record reads
/// whole: the settings, the next effect's id, and the packs.
#[allow(clippy::too_many_arguments)]
fn with_the_rest(
    ground: Ground<'_>,
    registry: &Registry,
    gangs: Vec<Gang>,
    fighters: Vec<crate::campaign::Fighter>,
    titles: crate::campaign::titles::TitleHolders,
    pending: Vec<crate::campaign::PendingEffect>,
    lasting: Vec<crate::campaign::LastingEffect>,
    season: crate::campaign::season::SeasonState,
    records_since: BTreeMap<crate::campaign::EffectId, u32>,
) -> Result<CampaignState> {
    Ok(CampaignState {
        roots: roots(&gangs, registry),
        settings: ground.settings()?,
        stamps: stamps(registry),
        records_since,
        gangs,
        fighters,
        titles,
        pending,
        lasting,
        next_effect: ground.next_effect_id()?,
        season,
    })
}

/// Every gang of `pack`'s game: its pack's, or one laid over the same
/// base.
pub(super) fn gangs_of_game(
    ground: Ground<'_>,
    registry: &Registry,
    pack: &Pack,
) -> Result<Vec<Gang>> {
    let root = root_of(registry, &pack.pack.id);
    Ok(ground
        .gangs()?
        .into_iter()
        .filter(|g| root_of(registry, &g.ruleset) == root)
        .collect())
}

/// A gang by name as names are compared (any case, any normal form).
fn gang_called(ground: Ground<'_>, name: &str) -> Result<Option<Gang>> {
    if let Some(gang) = ground.gang_by_name(name)? {
        return Ok(Some(gang));
    }
    // Beyond ASCII case: compared one by one.
    Ok(ground
        .gangs()?
        .into_iter()
        .find(|g| text::same(&g.name, name)))
}

/// The gangs that can hold a title of `pack` after a battle that changes
/// the resources of `taking_part` gangs: for each title, the leaders of
/// its resource down to one place more than the titles and the gangs
/// taking part (the battle's gangs may fall, and a gang holds one title
/// where the pack says so). A tie at that last place is read as far as as
/// many places: with the battle's gangs and every gang holding another
/// title set aside, two of it remain, and it is still a tie.
fn title_contenders(
    ground: Ground<'_>,
    registry: &Registry,
    pack: &Pack,
    taking_part: usize,
) -> Result<Vec<GangId>> {
    let root = root_of(registry, &pack.pack.id);
    let rulesets: Vec<String> = registry
        .packs()
        .map(|p| p.pack.id.clone())
        .filter(|id| root_of(registry, id) == root)
        .collect();
    let places = pack.titles.len() + taking_part + 1;
    let mut out = Vec::new();
    for title in &pack.titles {
        out.extend(ground.resource_leaders(&title.resource, &rulesets, places)?);
    }
    Ok(out)
}

/// The gangs that can hold a title of `pack` as the campaign stands: the
/// holders and each title's leaders down the standings index, as a
/// record reads them (every gang of the game where a title reads them
/// all), in the order the store lists every gang.
pub(super) fn title_hopefuls(
    ground: Ground<'_>,
    registry: &Registry,
    pack: &Pack,
) -> Result<Vec<Gang>> {
    if concerns_every_gang(pack) {
        return gangs_of_game(ground, registry, pack);
    }
    let mut ids: Vec<GangId> = ground.title_holders()?.values().copied().collect();
    ids.extend(title_contenders(ground, registry, pack, 0)?);
    ids.sort();
    ids.dedup();
    let root = root_of(registry, &pack.pack.id);
    let mut gangs: Vec<Gang> = ground
        .gangs_by_ids(&ids)?
        .into_iter()
        .filter(|g| root_of(registry, &g.ruleset) == root)
        .collect();
    gangs.sort_by_cached_key(|g| (g.name.to_lowercase(), g.id));
    Ok(gangs)
}

/// True when a record of `pack` concerns every gang of its game, not only
/// those in it, the gangs holding their fighters and the indexed leaders
/// of each title: upkeep for the whole campaign, a title to the fewest of
/// something (any gang's), or a title of a count of fighters (not
/// indexed).
fn concerns_every_gang(pack: &Pack) -> bool {
    let upkeep_for_all = pack
        .record()
        .upkeep
        .iter()
        .any(|u| u.to == crate::rules::UpkeepScope::Campaign);
    let fewest = pack
        .titles
        .iter()
        .any(|t| t.comparison == crate::rules::Comparison::Fewest);
    upkeep_for_all
        || fewest
        || crate::campaign::titles::counts_fighters(pack)
        || crate::campaign::season::reads_every_gang(pack)
}

/// Each of `registry`'s packs' stamps: the versions a record of it is
/// played with.
fn stamps(registry: &Registry) -> BTreeMap<String, Vec<crate::rules::PackStamp>> {
    registry
        .packs()
        .map(|p| (p.pack.id.clone(), registry.stamps(&p.pack.id)))
        .collect()
}

/// Each ruleset's first pack: the gangs' and every loaded pack's.
fn roots(gangs: &[Gang], registry: &Registry) -> BTreeMap<String, String> {
    gangs
        .iter()
        .map(|g| (g.ruleset.clone(), root_of(registry, &g.ruleset)))
        .chain(
            registry
                .packs()
                .map(|p| (p.pack.id.clone(), root_of(registry, &p.pack.id))),
        )
        .collect()
}
