/**
 * Files of attack results: {@link ResultJson} writes one {@code AttackResult} as JSON (metrics, per-example scores,
 * the snapshot trace without images, timing and provenance; non-finite numbers as strings), and {@link ResultCsv}
 * writes its snapshot trace, or one summary row per attack. The results come from {@code org.dpdl4j.attacks}, the
 * PNG grids from {@code org.dpdl4j.attacks.image}, and the reports of whole campaigns from
 * {@code org.dpdl4j.experiments.campaign}.
 */
package org.dpdl4j.experiments.attack;
