package org.dpdl4j.attacks.image;

import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PixelBlocksTest {

    private static int rgb(BufferedImage image, int x, int y) {
        return image.getRGB(x, y) & 0xFFFFFF;
    }

    @Test
    void greyLevelsAreClampedZoomedAndPlaced() {
        BufferedImage image = new BufferedImage(6, 5, BufferedImage.TYPE_INT_RGB);
        // 2 x 2 grey image: black, white, out of range (clamped to white), NaN (failed reconstruction: mid-grey)
        PixelBlocks.draw(image, new double[]{0, 1, 7, Double.NaN}, new ImageShape(1, 2, 2), 2, 1, 1);
        assertEquals(0x000000, rgb(image, 1, 1));
        assertEquals(0xFFFFFF, rgb(image, 3, 2), "pixel (0, 1) fills its 2 x 2 block");
        assertEquals(0xFFFFFF, rgb(image, 1, 3));
        assertEquals(0x808080, rgb(image, 4, 4));
        assertEquals(0x000000, rgb(image, 0, 0), "nothing drawn outside the placed image");
    }

    @Test
    void threeChannelsAreRgbAndAMissingImageIsAGreyBox() {
        BufferedImage image = new BufferedImage(2, 1, BufferedImage.TYPE_INT_RGB);
        PixelBlocks.draw(image, new double[]{1, 0, 1}, new ImageShape(3, 1, 1), 1, 0, 0);   // planes R, G, B
        assertEquals(0xFF00FF, rgb(image, 0, 0));
        PixelBlocks.draw(image, null, new ImageShape(3, 1, 1), 1, 1, 0);
        assertEquals(0xB0B0B0, rgb(image, 1, 0));
    }
}
