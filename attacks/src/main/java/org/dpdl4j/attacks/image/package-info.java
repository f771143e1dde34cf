/**
 * PNG pictures of reconstructions: {@link ImageGrid} draws one attack result (each original, then its
 * reconstruction at chosen iterations, captioned with PSNR), and {@link PanelGrid} lays out labelled
 * {@link PanelGrid.Cell}s to compare reconstructions across protocols and privacy levels. Pixels in [0, 1] are
 * scaled up by an integer zoom. This package only draws: the scores in the captions come from
 * {@code org.dpdl4j.attacks.CaseScorer} and {@code org.dpdl4j.attacks.metrics}, and choosing where the files go is
 * left to the callers in the cli and experiments modules.
 */
package org.dpdl4j.attacks.image;
